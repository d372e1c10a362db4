#include "cli/ab_command.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/compare_command.h"
#include "cli/units.h"
#include "common/atomic_file.h"
#include "common/output_dir.h"
#include "compare/compare_runs.h"
#include "harness/interrupt.h"
#include "records/json_results.h"
#include "writers/compare_writer.h"
#include "writers/format.h"

extern char** environ;

namespace dbxb {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kMaxRounds = 1000;

Status ParseOptions(const AbArgs& args, CompareOptions* o, uint64_t* rounds) {
  // A paired comparison needs at least 2 rounds.
  DBXB_RETURN_IF_ERROR(ParseCountOption("--rounds", args.rounds, 2, kMaxRounds, rounds));
  DBXB_RETURN_IF_ERROR(ParseFractionOption("--max-regression", args.max_regression, &o->max_regression));
  DBXB_RETURN_IF_ERROR(ParseFractionOption("--noise-threshold", args.noise_threshold, &o->noise_threshold));
  DBXB_RETURN_IF_ERROR(ParseComparisonTests(args.significance, args.resamples, args.seed, o));
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

Status ValidateOutputFile(const std::string& path, const char* option) {
  if (path.empty()) return Status::Ok();
  std::error_code ec;
  const fs::path parent = fs::path(path).parent_path();
  if (!parent.empty() && !fs::is_directory(parent, ec))
    return Status::InvalidArgument(fmt::format("{}: directory '{}' does not exist", option, parent.string()));
  if (fs::is_directory(path, ec)) return Status::InvalidArgument(fmt::format("{}: '{}' is a directory", option, path));
  return Status::Ok();
}

std::string DefaultAbDir() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H-%M-%SZ", &tm);
  return std::string("results/ab-") + buf;
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

// The last line of `path` that is not empty, without the "dbx-bench: " prefix ("" when none).
std::string LastLine(const fs::path& path) {
  std::ifstream in(path);
  std::string line, last;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  const std::string prefix = "dbx-bench: ";
  if (last.rfind(prefix, 0) == 0) last.erase(0, prefix.size());
  return last;
}

struct ChildExit {
  int exit_code = -1;   ///< -1 when it did not exit normally
  int term_signal = 0;  ///< the signal that ended it
  std::string spawn_error;
  double seconds = 0;

  bool ok() const { return spawn_error.empty() && exit_code == 0; }
  std::string Describe() const {
    if (!spawn_error.empty()) return "could not be started: " + spawn_error;
    if (term_signal != 0) return fmt::format("was killed by signal {} ({})", term_signal, strsignal(term_signal));
    return fmt::format("exited with status {}", exit_code);
  }
};

// Runs `argv` with stdin from /dev/null and stdout and stderr appended to `log`; waits for it.
ChildExit RunChild(const std::vector<std::string>& argv, const fs::path& log) {
  ChildExit result;
  std::vector<char*> cargv;
  for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, cargv[0], &actions, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    result.spawn_error = std::strerror(rc);
    return result;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      result.spawn_error = std::string("waitpid: ") + std::strerror(errno);
      return result;
    }
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.term_signal = WTERMSIG(status);
  return result;
}

std::string RoundName(size_t round) { return fmt::format("round-{:02}", round + 1); }

Status WriteText(const std::string& path, const std::string& text, const char* option) {
  if (path.empty()) return Status::Ok();
  return WriteFileAtomically(path, text).WithContext(option);
}

}  // namespace

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
  cmd->add_option("--rounds", args->rounds, "Rounds; each runs both binaries once, in ABBA order")
      ->capture_default_str();
  cmd->add_option("--out", args->out_dir, "Directory of the rounds (new or empty; default results/ab-<UTC time>)");
  cmd->add_option("--max-regression", args->max_regression,
                  "Fail (exit 1) when a regression is surely over this (5% or 0.05)")
      ->capture_default_str();
  cmd->add_option("--significance", args->significance, "Family-wise significance level (Holm)")->capture_default_str();
  cmd->add_option("--noise-threshold", args->noise_threshold, "Changes within +-this are noise")->capture_default_str();
  cmd->add_option("--resamples", args->resamples, "Bootstrap resamples")->capture_default_str();
  cmd->add_option("--seed", args->seed, "Seed of the bootstrap")->capture_default_str();
  cmd->add_option("--markdown", args->markdown_path, "Also write the comparison as Markdown (for a PR comment)");
  cmd->add_option("--json", args->json_path, "Also write the comparison as JSON");
  cmd->add_option("run-args", args->run_args, "After --: the arguments of `dbx-bench run` for every round");
  return cmd;
}

CommandResult RunAb(const AbArgs& args, std::ostream& console, std::ostream& progress) {
  CompareOptions options;
  uint64_t rounds = 0;
  Status st = ParseOptions(args, &options, &rounds);
  if (st.ok()) st = ValidateBinary(args.baseline_bin, "--baseline-bin");
  if (st.ok()) st = ValidateBinary(args.current_bin, "--current-bin");
  if (st.ok()) st = ValidateAbRunArgs(args.run_args);
  if (st.ok()) st = ValidateOutputFile(args.markdown_path, "--markdown");
  if (st.ok()) st = ValidateOutputFile(args.json_path, "--json");
  const std::string dir = args.out_dir.empty() ? DefaultAbDir() : args.out_dir;
  if (st.ok()) st = ValidateOutDir(dir);
  if (!st.ok()) return BadInput(st.message());

  OutputDir out;
  st = out.Prepare(dir);
  if (!st.ok()) return BadInput(st.message());
  // Until a round has finished, a failure leaves nothing behind: the round directories are removed
  // here and OutputDir removes DIR when it created it.
  bool keep = false;
  auto discard = [&]() {
    if (keep) return;
    std::error_code ec;
    for (size_t r = 0; r < rounds; ++r) fs::remove_all(fs::path(dir) / RoundName(r), ec);
  };

  RunSet baseline, current;
  const auto started = std::chrono::steady_clock::now();
  for (size_t r = 0; r < rounds; ++r) {
    const fs::path round_dir = fs::path(dir) / RoundName(r);
    std::error_code ec;
    fs::create_directories(round_dir, ec);
    if (ec) {
      discard();
      return BadInput(fmt::format("--out: cannot create '{}': {}", round_dir.string(), ec.message()));
    }
    std::string line = fmt::format("ab: round {}/{}:", r + 1, rounds);
    for (int k = 0; k < 2; ++k) {
      const bool is_baseline = (k == 0) == BaselineFirst(r);
      const char* side = is_baseline ? "baseline" : "current";
      const std::string& bin = is_baseline ? args.baseline_bin : args.current_bin;
      const fs::path side_dir = round_dir / side;
      std::vector<std::string> argv = {bin, "run"};
      argv.insert(argv.end(), args.run_args.begin(), args.run_args.end());
      argv.push_back("--out");
      argv.push_back(side_dir.string());
      const fs::path log = round_dir / (std::string(side) + ".log");
      const ChildExit exit = RunChild(argv, log);
      if (InterruptRequested() || exit.exit_code == kExitCodeInterrupted) {
        discard();
        return CommandResult::Failed(kExitCodeInterrupted,
                                     fmt::format("interrupted in round {} of {}{}", r + 1, rounds,
                                                 keep ? "; the finished rounds are in " + dir : ": nothing kept"));
      }
      if (!exit.ok()) {
        const std::string why = LastLine(log);
        const bool rejected = r == 0 && k == 0 && exit.exit_code == kExitCodeBadInput;
        discard();
        if (rejected) {
          return BadInput(fmt::format("{} binary {} rejected the run arguments: {}", side, bin,
                                      why.empty() ? exit.Describe() : why));
        }
        return BadInput(fmt::format("round {}/{}: {} binary {} {}{}; {}", r + 1, rounds, side, bin, exit.Describe(),
                                    why.empty() ? "" : ": " + why,
                                    keep ? "the rounds so far are in " + dir : "nothing kept"));
      }
      RunResults results;
      const std::string results_path = (side_dir / "results.json").string();
      st = ReadResultsFile(results_path, &results);
      if (!st.ok()) {
        discard();
        return BadInput(fmt::format("round {}/{}: {} binary {}: {}", r + 1, rounds, side, bin, st.message()));
      }
      RunSet& set = is_baseline ? baseline : current;
      set.runs.push_back(std::move(results));
      set.sources.push_back(side_dir.string());
      line += fmt::format(" {} {:.1f} s{}", side, exit.seconds, k == 0 ? "," : "");
    }
    keep = true;
    out.Keep();
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    progress << line << fmt::format(" (elapsed {:.0f} s{})\n", elapsed, r == 0 ? "; rounds in " + dir : "")
             << std::flush;
  }

  ComparisonReport report;
  st = CompareRunSets(baseline, current, /*paired=*/true, options, &report);
  if (!st.ok()) return BadInput(st.message());
  std::ostringstream md;
  st = WriteCompareConsole(report, console);
  if (st.ok()) st = WriteCompareMarkdown(report, md);
  if (!st.ok()) return CommandResult::Failed(kExitCodeBadInput, st.ToString());
  const std::string json = SerializeComparison(report);
  st = WriteText((fs::path(dir) / "comparison.md").string(), md.str(), "--out");
  if (st.ok()) st = WriteText((fs::path(dir) / "comparison.json").string(), json, "--out");
  if (st.ok()) st = WriteText(args.markdown_path, md.str(), "--markdown");
  if (st.ok()) st = WriteText(args.json_path, json, "--json");
  if (!st.ok()) return BadInput(st.message());
  if (report.GateFailed()) {
    return CommandResult::Failed(
        kExitCodeFailure,
        fmt::format("{} row{} regressed by more than {} over {} paired rounds", report.RegressionsOverThreshold(),
                    report.RegressionsOverThreshold() == 1 ? "" : "s", FormatPercent(options.max_regression), rounds));
  }
  return CommandResult::Ok();
}

}  // namespace dbxb
