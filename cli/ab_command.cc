#include "cli/ab_command.h"

#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <sstream>

#include "cli/ab_child.h"
#include "cli/ab_rounds.h"
#include "cli/command_options.h"
#include "cli/compare_command.h"
#include "cli/run_options.h"
#include "cli/units.h"
#include "common/file_policy.h"
#include "common/output_dir.h"
#include "writers/compare_writer.h"
#include "writers/format.h"

namespace dbxb {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kMaxRounds = 1000;
constexpr uint64_t kDefaultMaxRounds = 20;

// --rounds, --max-rounds and --round-timeout into *plan. Instruction counts (run --measure
// instructions) are exact: one round decides them, and is the default (also of --rounds auto).
Status ParseRounds(const AbArgs& args, AbPlan* plan) {
  const bool instructions = RunArgValue(args.run_args, "--measure") == "instructions";
  plan->sequential = args.rounds == "auto";
  if (!args.max_rounds.empty() && !plan->sequential)
    return Status::InvalidArgument("--max-rounds: applies to --rounds auto only (give --rounds auto, or --rounds N)");
  uint64_t n = plan->sequential ? kDefaultMaxRounds : instructions ? 1 : 10;
  if (plan->sequential && !args.max_rounds.empty())
    DBXB_RETURN_IF_ERROR(ParseCountOption("--max-rounds", args.max_rounds, 2, kMaxRounds, &n));
  if (!plan->sequential && !args.rounds.empty())  // timings need 2 rounds to pair; instruction counts one
    DBXB_RETURN_IF_ERROR(ParseCountOption("--rounds", args.rounds, instructions ? 1 : 2, kMaxRounds, &n));
  if (plan->sequential && instructions) {
    plan->sequential = false;
    n = 1;
  }
  plan->rounds = n;
  if (!args.round_timeout.empty())
    DBXB_RETURN_IF_ERROR(ParseDurationOption("--round-timeout", args.round_timeout, 1, &plan->round_timeout));
  return Status::Ok();
}

Status ParseOptions(const AbArgs& args, AbPlan* plan) {
  CompareOptions* o = &plan->options;
  DBXB_RETURN_IF_ERROR(ParseRounds(args, plan));
  DBXB_RETURN_IF_ERROR(ParseGateOptions(args.gate, o));
  return ValidateCompareOptions(*o);
}

Status ValidateBinary(const std::string& path, const char* option) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return Status::InvalidArgument(fmt::format("{}: '{}' does not exist", option, path));
  if (!fs::is_regular_file(path, ec))
    return Status::InvalidArgument(fmt::format("{}: '{}' is not a regular file", option, path));
  if (::access(path.c_str(), X_OK) != 0)
    return Status::InvalidArgument(fmt::format("{}: '{}' is not executable", option, path));
  return Status::Ok();
}

// DIR must be new or an empty directory, so that no earlier rounds mix with these.
Status ValidateOutDir(const std::string& dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) return Status::Ok();
  if (!fs::is_directory(dir, ec)) return Status::InvalidArgument(fmt::format("--out: '{}' is not a directory", dir));
  if (!fs::is_empty(dir, ec)) {
    return Status::InvalidArgument(
        fmt::format("--out: '{}' already holds files; ab writes its rounds into a new or empty directory", dir));
  }
  return Status::Ok();
}

Status WriteText(const FilePolicy& files, const std::string& path, const std::string& text, const char* option) {
  return path.empty() ? Status::Ok() : files.WriteOutputFile(option, path, text);
}

// Everything checked before anything runs or is created.
Status Validate(const AbArgs& args, AbPlan* plan, FilePolicy* files) {
  DBXB_RETURN_IF_ERROR(ParseOptions(args, plan));
  DBXB_RETURN_IF_ERROR(ValidateBinary(args.baseline_bin, "--baseline-bin"));
  DBXB_RETURN_IF_ERROR(ValidateBinary(args.current_bin, "--current-bin"));
  DBXB_RETURN_IF_ERROR(ValidateAbRunArgs(args.run_args));
  files->NoteInput(args.baseline_bin);
  files->NoteInput(args.current_bin);
  if (!args.markdown_path.empty()) DBXB_RETURN_IF_ERROR(files->CheckOutputFile("--markdown", args.markdown_path));
  if (!args.json_path.empty()) DBXB_RETURN_IF_ERROR(files->CheckOutputFile("--json", args.json_path));
  plan->baseline_bin = args.baseline_bin;
  plan->current_bin = args.current_bin;
  plan->run_args = args.run_args;
  plan->dir = args.out_dir.empty() ? TimestampedResultsDir("ab-", "%Y-%m-%dT%H-%M-%SZ") : args.out_dir;
  return ValidateOutDir(plan->dir);
}

// Prints the comparison and writes DIR/comparison.{md,json}, --markdown and --json.
Status WriteComparison(const ComparisonReport& report, const AbArgs& args, const std::string& dir,
                       const FilePolicy& files, std::ostream& console) {
  std::ostringstream md;
  DBXB_RETURN_IF_ERROR(WriteCompareConsole(report, console));
  DBXB_RETURN_IF_ERROR(WriteCompareMarkdown(report, md));
  const std::string json = SerializeComparison(report);
  DBXB_RETURN_IF_ERROR(WriteText(files, (fs::path(dir) / "comparison.md").string(), md.str(), "--out"));
  DBXB_RETURN_IF_ERROR(WriteText(files, (fs::path(dir) / "comparison.json").string(), json, "--out"));
  DBXB_RETURN_IF_ERROR(WriteText(files, args.markdown_path, md.str(), "--markdown"));
  return WriteText(files, args.json_path, json, "--json");
}

}  // namespace

std::string RunArgValue(const std::vector<std::string>& run_args, const std::string& option) {
  for (size_t i = 0; i < run_args.size(); ++i) {
    const std::string& a = run_args[i];
    if (a == option) return i + 1 < run_args.size() ? run_args[i + 1] : "";
    if (a.rfind(option + "=", 0) == 0) return a.substr(option.size() + 1);
  }
  return "";
}

Status ValidateAbRunArgs(const std::vector<std::string>& run_args) {
  if (run_args.empty()) {
    return Status::InvalidArgument(
        "no run arguments: give the arguments of `dbx-bench run` after --, e.g. -- --suite dbx-micro --quick");
  }
  for (size_t i = 0; i < run_args.size(); ++i) {
    const std::string& a = run_args[i];
    const std::string name = a.substr(0, a.find('='));
    if (name == "--out" || name == "--save-baseline") {
      return Status::InvalidArgument(fmt::format(
          "run arguments: {} is set by ab (every round writes into its own directory under ab's --out)", name));
    }
    if (name == "--format") {
      const std::string value = a.find('=') != std::string::npos ? a.substr(a.find('=') + 1)
                                : i + 1 < run_args.size()        ? run_args[i + 1]
                                                                 : "";
      if (("," + value + ",").find(",json,") == std::string::npos) {
        return Status::InvalidArgument(fmt::format(
            "run arguments: --format '{}' must include json (ab compares the rounds' results.json)", value));
      }
    }
  }
  return Status::Ok();
}

CLI::App* AddAbCommand(CLI::App* app, AbArgs* args) {
  CLI::App* cmd = app->add_subcommand(
      "ab", "Paired A/B rounds of two builds (ABBA order) and a gate on the per-round ratios: the pull-request gate");
  cmd->add_option("--baseline-bin", args->baseline_bin, "The baseline build: an executable that behaves as dbx-bench")
      ->required();
  cmd->add_option("--current-bin", args->current_bin, "The build under test")->required();
  cmd->add_option("--rounds", args->rounds,
                  "Rounds (each runs both binaries, ABBA order), or auto: until every row is decided or one regressed "
                  "(default 10; 1 with --measure instructions)");
  cmd->add_option("--max-rounds", args->max_rounds, "With --rounds auto: the most rounds to run (default 20)");
  cmd->add_option("--round-timeout", args->round_timeout,
                  "The most one run may take (default: 30 min for the first, then 5x the slowest, at least 60 s)");
  cmd->add_option("--out", args->out_dir, "Directory of the rounds (new or empty; default results/ab-<UTC time>)");
  AddGateOptions(cmd, &args->gate);
  cmd->add_option("--markdown", args->markdown_path, "Also write the comparison as Markdown (for a PR comment)");
  cmd->add_option("--json", args->json_path, "Also write the comparison as JSON");
  AddForceFlag(cmd, &args->force);
  cmd->add_option("run-args", args->run_args, "After --: the arguments of `dbx-bench run` for every round");
  return cmd;
}

CommandResult RunAb(const AbArgs& args, std::ostream& console, std::ostream& progress) {
  AbPlan plan;
  FilePolicy files("ab", args.force);
  Status st = Validate(args, &plan, &files);
  if (!st.ok()) return BadInput(st.message());
  OutputDir out;
  st = out.Prepare(plan.dir);
  if (!st.ok()) return BadInput(st.message());
  InstallAbSignalHandlers();
  ComparisonReport report;
  size_t kept = 0;
  CommandResult result = RunAbRounds(plan, progress, &report, &kept);
  // Until a round has finished nothing is kept: OutputDir removes DIR when it created it.
  if (kept > 0) {
    out.Keep();
  } else {
    std::error_code ec;
    fs::remove_all(fs::path(plan.dir) / "round-01", ec);
  }
  if (result.exit_code != kExitCodeSuccess) return result;
  st = WriteComparison(report, args, plan.dir, files, console);
  if (!st.ok()) return BadInput(st.message());
  return GateOutcome(
      report, fmt::format(" over {} paired round{}", report.baseline_runs, report.baseline_runs == 1 ? "" : "s"));
}

}  // namespace dbxb
