#include "writers/output_formats.h"

#include "writers/gbench_reporter.h"
#include "writers/json_reporter.h"
#include "writers/markdown_reporter.h"

namespace dbxb {

const std::vector<OutputFormat>& OutputFormats() {
  static const std::vector<OutputFormat> formats = {
      {"json", "results.json",
       [](const std::string&) -> std::unique_ptr<Reporter> { return std::make_unique<JsonReporter>(); }},
      {"md", "results.md",
       [](const std::string& baseline) -> std::unique_ptr<Reporter> {
         return std::make_unique<MarkdownReporter>(baseline);
       }},
      {"gbench", "results.gbench.json",
       [](const std::string&) -> std::unique_ptr<Reporter> { return std::make_unique<GbenchReporter>(); }},
  };
  return formats;
}

const OutputFormat* FindOutputFormat(std::string_view name) {
  for (const OutputFormat& f : OutputFormats())
    if (f.name == name) return &f;
  return nullptr;
}

std::string OutputFormatNames() {
  std::string out;
  for (const OutputFormat& f : OutputFormats()) out += (out.empty() ? "" : ", ") + f.name;
  return out;
}

}  // namespace dbxb
