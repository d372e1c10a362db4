#include "cli/report_command.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <filesystem>

#include "cli/command_options.h"
#include "cli/compare_command.h"
#include "common/file_policy.h"
#include "common/output_dir.h"
#include "records/json_results.h"
#include "writers/report_writer.h"

namespace dbxb {

namespace fs = std::filesystem;

CLI::App* AddReportCommand(CLI::App* app, ReportArgs* args) {
  CLI::App* cmd = app->add_subcommand(
      "report", "Write a publishable Markdown report with SVG charts from one or more results files");
  cmd->add_option("results", args->inputs, std::string(kResultsInputsHelp) + "; one section each");
  cmd->add_option("-o,--out", args->out_dir, "Directory to write README.md and the charts into (created if missing)");
  cmd->add_option("--baseline", args->baseline_engine, "Engine the tables compare against (default: first)");
  AddForceFlag(cmd, &args->force);
  return cmd;
}

CommandResult RunReport(const ReportArgs& args, std::ostream& console) {
  if (args.inputs.empty()) return BadInput("report: give at least one results file");
  if (args.out_dir.empty()) return BadInput("report: give the output directory with -o DIR");

  FilePolicy files("report", args.force);
  std::vector<ReportInput> runs;
  for (const std::string& input : args.inputs) {
    ReportInput run;
    run.source = ResolveResultsPath(input);
    Status st = ReadResultsFile(run.source, &run.results);
    if (!st.ok()) return BadInput(st.message());
    files.NoteInput(run.source);
    runs.push_back(std::move(run));
  }

  if (!args.baseline_engine.empty()) {
    bool known = false;
    for (const ReportInput& run : runs) {
      for (const auto& b : run.results.benchmarks) known |= b.engine == args.baseline_engine;
      for (const auto& p : run.results.phases) known |= p.engine == args.baseline_engine;
    }
    if (!known)
      return BadInput(fmt::format("--baseline: engine '{}' is in none of the results files", args.baseline_engine));
  }

  // Every file is checked before the first is written: a report is written whole or not at all.
  const std::vector<ReportFile> report = RenderReport(runs, ReportOptions{args.baseline_engine});
  Status st = CheckOutputDirectory("-o", args.out_dir);
  std::error_code ec;
  for (size_t i = 0; st.ok() && fs::is_directory(args.out_dir, ec) && i < report.size(); ++i)
    st = files.CheckOutputFile("-o", (fs::path(args.out_dir) / report[i].name).string());
  OutputDir out("-o");
  if (st.ok()) st = out.Prepare(args.out_dir);
  if (!st.ok()) return BadInput(st.message());
  for (const ReportFile& f : report) {
    st = files.WriteOutputFile("-o", (fs::path(args.out_dir) / f.name).string(), f.contents);
    if (!st.ok()) return BadInput(st.message());
    out.Keep();
  }
  console << fmt::format("Wrote {} with {} chart{} from {} results file{}.\n",
                         (fs::path(args.out_dir) / kReportMarkdownName).string(), report.size() - 1,
                         report.size() == 2 ? "" : "s", runs.size(), runs.size() == 1 ? "" : "s");
  return CommandResult::Ok();
}

}  // namespace dbxb
