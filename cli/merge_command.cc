#include "cli/merge_command.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <map>
#include <optional>

#include "cli/command_options.h"
#include "cli/compare_command.h"
#include "common/file_policy.h"
#include "records/hdr_log.h"
#include "records/json_results.h"
#include "records/phase_merge.h"
#include "records/record_names.h"
#include "writers/format.h"
#include "writers/markdown_phases.h"

namespace dbxb {
namespace {

namespace fs = std::filesystem;

// A results file starts with '{'; anything else is read as an interval log.
bool LooksLikeResults(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string::npos && text[first] == '{';
}

std::string SummaryLine(const LatencySummary& s) {
  return fmt::format("p50 {}  p99 {}  p99.9 {}  max {}", FormatDuration(s.p50_ns), FormatDuration(s.p99_ns),
                     FormatDuration(s.p999_ns), FormatDuration(s.max_ns));
}

CommandResult MergeResults(const MergeArgs& args, const std::vector<std::string>& paths, std::vector<std::string> texts,
                           const FilePolicy& files, const std::string& out_path, std::ostream& console) {
  std::vector<MergeInput> inputs;
  for (size_t i = 0; i < paths.size(); ++i) {
    MergeInput in;
    in.file = args.inputs[i];
    Status st = ParseResults(texts[i], &in.results).WithContext(paths[i]);
    if (!st.ok()) return BadInput(st.message());
    inputs.push_back(std::move(in));
  }
  Result<RunResults> merged = MergeRuns(inputs);
  if (!merged.ok()) return BadInput(merged.status().message());
  RunResults& r = merged.value();
  r.context.command_line = fmt::format("dbx-bench merge {} -o {}", fmt::join(args.inputs, " "), args.out);
  Status st = files.WriteOutputFile("-o", out_path, SerializeResults(r));
  if (!st.ok()) return BadInput(st.message());
  console << fmt::format("Merged {} results files (hosts: {}) into {}\n", inputs.size(), r.context.host_name, out_path);
  for (const PhaseResult& p : r.phases) {
    console << fmt::format("{}: {} operations, {} ({} inputs, {}), {}\n", PhaseName(p), FormatInteger(p.operations),
                           FormatRate(p.throughput_ops_per_sec, "ops/s"), p.merged_from.size(), p.merged_throughput,
                           SummaryLine(p.service_time));
    for (const PhaseSource& s : p.merged_from)
      console << fmt::format("    {} ({}): {} operations, {}\n", s.host_name, s.file, FormatInteger(s.operations),
                             FormatRate(s.throughput_ops_per_sec, "ops/s"));
  }
  return CommandResult::Ok();
}

CommandResult MergeLogs(const MergeArgs& args, const std::vector<std::string>& texts, const FilePolicy& files,
                        const std::string& out_path, std::ostream& console) {
  std::vector<HdrLog> logs;
  bool any_start_unknown = false;
  double base = 0;
  for (size_t i = 0; i < texts.size(); ++i) {
    Result<HdrLog> log = ParseHdrLog(texts[i]);
    if (!log.ok()) return BadInput(fmt::format("{}: {}", args.inputs[i], log.status().message()));
    if (log->start_unix_s > 0) base = base == 0 ? log->start_unix_s : std::min(base, log->start_unix_s);
    any_start_unknown = any_start_unknown || log->start_unix_s == 0;
    logs.push_back(std::move(log.value()));
  }
  if (any_start_unknown && base > 0)
    return BadInput("merge: some logs have a StartTime or BaseTime and others not; their intervals cannot be lined up");
  HdrLog out;
  out.start_unix_s = base;
  out.comments.push_back(fmt::format("dbx-bench merge of {}", fmt::join(args.inputs, ", ")));
  out.comments.push_back("Values as in the inputs (dbx-bench logs: nanoseconds); intervals on the earliest StartTime");
  std::map<std::string, LatencyHistogram> by_tag;
  for (HdrLog& log : logs) {
    const double shift = base > 0 ? log.start_unix_s - base : 0;
    for (HdrLogInterval& i : log.intervals) {
      i.start_s += shift;
      by_tag[i.tag.empty() ? "-" : i.tag].Merge(i.histogram);
      out.intervals.push_back(std::move(i));
    }
  }
  std::stable_sort(out.intervals.begin(), out.intervals.end(),
                   [](const HdrLogInterval& a, const HdrLogInterval& b) { return a.start_s < b.start_s; });
  Status st = files.WriteOutputFile("-o", out_path, FormatHdrLog(out));
  if (!st.ok()) return BadInput(st.message());
  console << fmt::format("Merged {} interval logs ({} intervals) into {}\n", logs.size(), out.intervals.size(),
                         out_path);
  console << "tag count min max p50 p90 p99 p99.9\n";
  for (const auto& [tag, h] : by_tag) {
    console << fmt::format("{} {} {} {} {} {} {} {}\n", tag, h.Count(), h.Min(), h.Max(), h.ValueAtPercentile(50),
                           h.ValueAtPercentile(90), h.ValueAtPercentile(99), h.ValueAtPercentile(99.9));
  }
  return CommandResult::Ok();
}

}  // namespace

CLI::App* AddMergeCommand(CLI::App* app, MergeArgs* args) {
  CLI::App* cmd = app->add_subcommand(
      "merge", "Merge the runs of several client hosts (or repeated runs) by adding their histograms");
  cmd->add_option("inputs", args->inputs,
                  std::string(kResultsInputsHelp) + ", or HdrHistogram interval logs (run --hdr-log)");
  cmd->add_option("-o,--out", args->out, "The merged results file (a directory: DIR/results.json) or log");
  AddForceFlag(cmd, &args->force);
  return cmd;
}

CommandResult RunMerge(const MergeArgs& args, std::ostream& console) {
  if (args.inputs.size() < 2)
    return BadInput(fmt::format("merge: give at least two inputs, got {}", args.inputs.size()));
  if (args.out.empty()) return BadInput("merge: give the output file with -o FILE");
  FilePolicy files("merge", args.force);
  std::error_code ec;
  std::string out_path = args.out;
  if (fs::is_directory(out_path, ec)) out_path = (fs::path(out_path) / "results.json").string();
  std::vector<std::string> paths, texts;
  for (const std::string& input : args.inputs) {
    paths.push_back(ResolveResultsPath(input));
    // Each input counts once: a run given twice would double its operations.
    if (std::optional<std::string> earlier = files.NoteInput(paths.back()))
      return BadInput(fmt::format("merge: '{}' and '{}' are the same file, given twice", paths.back(), *earlier));
  }
  if (Status st = files.CheckOutputFile("-o", out_path); !st.ok()) return BadInput(st.message());
  for (const std::string& path : paths) {
    std::string text;
    // Which kind it is shows only in the text: the larger bound, that of interval logs.
    Status st = ReadInputFile(path, kMaxIntervalLogBytes, &text);
    if (!st.ok()) return BadInput(st.message());
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) return BadInput(path + ": the file is empty");
    texts.push_back(std::move(text));
  }
  const bool results = LooksLikeResults(texts[0]);
  for (size_t i = 1; i < texts.size(); ++i) {
    if (LooksLikeResults(texts[i]) != results)
      return BadInput(fmt::format("merge: {} is {} but {} is {}; merge results files or logs, not both", args.inputs[0],
                                  results ? "a results file" : "an interval log", args.inputs[i],
                                  results ? "not" : "a results file"));
  }
  return results ? MergeResults(args, paths, std::move(texts), files, out_path, console)
                 : MergeLogs(args, texts, files, out_path, console);
}

}  // namespace dbxb
