#include "cli/compare_command.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <memory>
#include <sstream>

#include "cli/command_options.h"
#include "cli/units.h"
#include "common/file_policy.h"
#include "compare/compare.h"
#include "compare/compare_runs.h"
#include "records/json_results.h"
#include "stats/bootstrap.h"
#include "writers/compare_writer.h"
#include "writers/format.h"

namespace dbxb {
namespace {

namespace fs = std::filesystem;

Status ParseOptions(const CompareArgs& args, CompareOptions* o) {
  DBXB_RETURN_IF_ERROR(ParseGateOptions(args.gate, o));
  if (!args.noise_floor.empty())
    DBXB_RETURN_IF_ERROR(ParseFractionOption("--noise-floor", args.noise_floor, &o->noise_floor));
  uint64_t looks = 1;
  DBXB_RETURN_IF_ERROR(ParseCountOption("--looks", args.looks, 1, 1000, &looks));
  o->looks = looks;
  return ValidateCompareOptions(*o);
}

// The files of each side, from the positional arguments, "--" and --baseline.
Status ResolveInputs(const CompareArgs& args, std::vector<std::string>* baseline, std::vector<std::string>* current) {
  if (!args.baseline_name.empty()) {
    DBXB_RETURN_IF_ERROR(ValidateBaselineName(args.baseline_name).WithContext("--baseline"));
    if (args.files.size() != 1 || args.separator != std::string::npos) {
      return Status::InvalidArgument(
          fmt::format("with --baseline {} give exactly one results file to compare (CURRENT), got {}",
                      args.baseline_name, args.files.size()));
    }
    const std::string path = BaselinePath(args.results_root, args.baseline_name);
    std::error_code ec;
    if (!fs::exists(path, ec)) {
      return Status::InvalidArgument(
          fmt::format("no baseline named '{}': {} does not exist (save one with "
                      "`dbx-bench run --save-baseline {}`)",
                      args.baseline_name, path, args.baseline_name));
    }
    *baseline = {path};
    *current = {ResolveResultsPath(args.files[0])};
    return Status::Ok();
  }
  if (args.separator != std::string::npos) {
    const size_t n = std::min(args.separator, args.files.size());
    std::error_code ec;
    for (size_t i = n; i < args.files.size(); ++i) {
      if (args.files[i].rfind("-", 0) == 0 && !fs::exists(args.files[i], ec)) {
        return Status::InvalidArgument(fmt::format(
            "'{}' after --: everything after -- is a CURRENT file; give the options before --", args.files[i]));
      }
    }
    for (size_t i = 0; i < args.files.size(); ++i)
      (i < n ? baseline : current)->push_back(ResolveResultsPath(args.files[i]));
    if (baseline->empty() || current->empty()) {
      return Status::InvalidArgument(
          fmt::format("give BASELINE... -- CURRENT... with at least one file on each side; "
                      "got {} before -- and {} after",
                      baseline->size(), current->size()));
    }
    return Status::Ok();
  }
  if (args.files.size() != 2) {
    return Status::InvalidArgument(fmt::format(
        "give two results files (BASELINE CURRENT), BASELINE... -- CURRENT..., or --baseline NAME and one file; got {} "
        "file{}",
        args.files.size(), args.files.size() == 1 ? "" : "s"));
  }
  *baseline = {ResolveResultsPath(args.files[0])};
  *current = {ResolveResultsPath(args.files[1])};
  return Status::Ok();
}

Status ReadRunSet(const std::vector<std::string>& paths, FilePolicy* files, RunSet* set) {
  for (const std::string& path : paths) {
    RunResults r;
    DBXB_RETURN_IF_ERROR(ReadResultsFile(path, &r));
    files->NoteInput(path);
    set->runs.push_back(std::move(r));
    set->sources.push_back(path);
  }
  return Status::Ok();
}

// --markdown and --json, checked before anything is compared or printed.
Status CheckOutputs(const CompareArgs& args, const FilePolicy& files) {
  if (!args.markdown_path.empty()) DBXB_RETURN_IF_ERROR(files.CheckOutputFile("--markdown", args.markdown_path));
  if (!args.json_path.empty()) DBXB_RETURN_IF_ERROR(files.CheckOutputFile("--json", args.json_path));
  return Status::Ok();
}

}  // namespace

Status ValidateBaselineName(std::string_view name) {
  const bool safe = !name.empty() && name.size() <= 100 && name != "." && name != ".." &&
                    name.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") ==
                        std::string_view::npos;
  if (safe) return Status::Ok();
  return Status::InvalidArgument(fmt::format(
      "'{}' is not a usable baseline name (1 to 100 characters from A-Z a-z 0-9 . _ -, not '.' or '..')", name));
}

std::string ResultsRootFor(const std::string& out_dir) {
  fs::path dir = fs::path(out_dir).lexically_normal();
  if (!dir.has_filename()) dir = dir.parent_path();  // "results/x/" -> "results/x"
  fs::path parent = dir.parent_path();
  return parent.empty() ? "." : parent.string();
}

std::string BaselinePath(const std::string& results_root, const std::string& name) {
  return (fs::path(results_root) / "baselines" / (name + ".json")).string();
}

std::string ResolveResultsPath(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return (fs::path(path) / "results.json").string();
  return path;
}

Status CheckSaveBaseline(const FilePolicy& files, const std::string& out_dir, const std::string& name) {
  DBXB_RETURN_IF_ERROR(ValidateBaselineName(name).WithContext("--save-baseline"));
  const std::string path = BaselinePath(ResultsRootFor(out_dir), name);
  const std::string dir = fs::path(path).parent_path().string();
  DBXB_RETURN_IF_ERROR(CheckOutputDirectory("--save-baseline", dir));
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return Status::Ok();  // created when the run is saved
  return files.CheckOutputFile("--save-baseline", path);
}

Status SaveBaseline(const FilePolicy& files, const RunResults& results, const std::string& out_dir,
                    const std::string& name, std::string* path) {
  DBXB_RETURN_IF_ERROR(ValidateBaselineName(name).WithContext("--save-baseline"));
  const std::string root = ResultsRootFor(out_dir);
  const fs::path dir = fs::path(root) / "baselines";
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir, ec))
    return Status::IOError(fmt::format("--save-baseline: cannot create '{}': {}", dir.string(), ec.message()));
  *path = BaselinePath(root, name);
  return files.WriteOutputFile("--save-baseline", *path, SerializeResults(results));
}

CLI::App* AddCompareCommand(CLI::App* app, CompareArgs* args) {
  CLI::App* cmd = app->add_subcommand(
      "compare", "Compare a run with a baseline (Criterion's statistics) and fail on regressions: the CI gate");
  // The validator runs once per positional while parsing (validate_positionals), after CLI11 has
  // recorded a "--" it met as a remaining argument: that is how the files before "--" are counted.
  CLI::Validator separator(
      [cmd, args, seen = std::make_shared<size_t>(0)](std::string&) {
        const std::vector<std::string> rest = cmd->remaining();
        if (args->separator == std::string::npos && std::find(rest.begin(), rest.end(), "--") != rest.end())
          args->separator = *seen;
        ++*seen;
        return std::string();
      },
      "");
  cmd->add_option("files", args->files,
                  "BASELINE CURRENT results files (or directories with results.json), or BASE... -- CURRENT...")
      ->check(separator);
  cmd->validate_positionals();
  // A positional that is never filled (every file goes to "files", which takes any number), hidden from
  // --help: while it waits for a value, CLI11 keeps a "--" inside `compare` instead of handing the rest
  // of the command line back to the top level after the first two files.
  cmd->add_option_function<std::string>("current-files", [](const std::string&) {})->group("");
  cmd->add_flag("--paired", args->paired, "With BASE... -- CURRENT...: BASE[i] and CURRENT[i] are round i (as ab)");
  cmd->add_option("--noise-floor", args->noise_floor,
                  "One run per side: the noise between runs of one build, added to each timing interval "
                  "(default: unknown, so timing rows are inconclusive; see --aa-runs)");
  cmd->add_option("--aa-runs", args->aa_runs, "A/A runs (comma-separated) that calibrate a noise floor per row")
      ->delimiter(',');
  cmd->add_option("--baseline", args->baseline_name,
                  "Compare CURRENT with the baseline saved by run --save-baseline NAME");
  cmd->add_option("--results-root", args->results_root, "Where named baselines live: ROOT/baselines/NAME.json")
      ->capture_default_str();
  AddGateOptions(cmd, &args->gate);
  cmd->add_option("--looks", args->looks,
                  "With --paired: the looks of the `ab --rounds auto` run being recomputed (its comparison.json "
                  "options.looks)")
      ->capture_default_str();
  cmd->add_option("--markdown", args->markdown_path, "Also write the comparison as Markdown (for a PR comment)");
  cmd->add_option("--json", args->json_path, "Also write the comparison as JSON");
  AddForceFlag(cmd, &args->force);
  return cmd;
}

CommandResult RunCompare(const CompareArgs& args, std::ostream& console) {
  CompareOptions options;
  Status st = ParseOptions(args, &options);
  if (!st.ok()) return BadInput(st.message());
  std::vector<std::string> baseline_paths, current_paths;
  st = ResolveInputs(args, &baseline_paths, &current_paths);
  if (!st.ok()) return BadInput(st.message());
  const bool single = baseline_paths.size() == 1 && current_paths.size() == 1;
  if (args.paired && args.separator == std::string::npos)
    return BadInput("--paired: give the rounds as BASE... -- CURRENT... (BASE[i] and CURRENT[i] are round i)");
  if (args.paired && baseline_paths.size() != current_paths.size()) {
    return BadInput(fmt::format("--paired: {} baseline and {} current files; rounds come in pairs",
                                baseline_paths.size(), current_paths.size()));
  }
  if (!single && !args.aa_runs.empty())
    return BadInput("--aa-runs: a noise floor is for one run per side; several runs per side measure their own noise");

  FilePolicy files("compare", args.force);
  RunSet baseline, current, aa;
  st = ReadRunSet(baseline_paths, &files, &baseline);
  if (st.ok()) st = ReadRunSet(current_paths, &files, &current);
  if (st.ok() && !args.aa_runs.empty()) {
    std::vector<std::string> aa_paths;
    for (const std::string& p : args.aa_runs) aa_paths.push_back(ResolveResultsPath(p));
    st = ReadRunSet(aa_paths, &files, &aa);
    if (st.ok()) st = CalibrateNoiseFloors(aa, &options).WithContext("--aa-runs");
  }
  if (st.ok()) st = CheckOutputs(args, files);
  if (!st.ok()) return BadInput(st.message());

  ComparisonReport report;
  if (single) {
    report.baseline.source = baseline_paths[0];
    report.current.source = current_paths[0];
    st = CompareRuns(baseline.runs[0], current.runs[0], options, &report);
  } else {
    st = CompareRunSets(baseline, current, args.paired, options, &report);
  }
  if (!st.ok()) return BadInput(st.message());

  st = WriteCompareConsole(report, console);
  if (!st.ok()) return CommandResult::Failed(kExitCodeBadInput, st.ToString());
  if (!args.markdown_path.empty()) {
    std::ostringstream md;
    st = WriteCompareMarkdown(report, md);
    if (st.ok()) st = files.WriteOutputFile("--markdown", args.markdown_path, md.str());
    if (!st.ok()) return BadInput(st.message());
  }
  if (!args.json_path.empty()) st = files.WriteOutputFile("--json", args.json_path, SerializeComparison(report));
  if (!st.ok()) return BadInput(st.message());

  return GateOutcome(report);
}

}  // namespace dbxb
