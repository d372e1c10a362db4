// The output formats of `run --format`: one row each, so that adding a format is one line in
// output_formats.cc (and its Reporter). The option's check, its help and the runner read this table.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "writers/reporter.h"

namespace dbxb {

struct OutputFormat {
  std::string name;       ///< as given to --format, e.g. "md"
  std::string file_name;  ///< written into --out, e.g. "results.md"
  /// The reporter; `baseline_engine` is the engine tables compare against (empty = the first).
  std::unique_ptr<Reporter> (*make)(const std::string& baseline_engine);
};

/// Every format, in the order of --help.
const std::vector<OutputFormat>& OutputFormats();

/// The format named `name`, or nullptr.
const OutputFormat* FindOutputFormat(std::string_view name);

/// "json, md, gbench".
std::string OutputFormatNames();

}  // namespace dbxb
