#include "cli/ab_rounds.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>

#include "cli/ab_child.h"
#include "compare/compare.h"
#include "compare/compare_runs.h"
#include "harness/signal_handlers.h"
#include "records/json_results.h"

namespace dbxb {
namespace {

namespace fs = std::filesystem;

std::string RoundName(size_t round) { return fmt::format("round-{:02}", round + 1); }

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

// The state of the rounds while they run.
class Rounds {
 public:
  Rounds(const AbPlan& plan, std::ostream& progress) : plan_(plan), progress_(progress) {}

  // Runs round `r`, both sides; a non-OK result stops the run.
  CommandResult RunRound(size_t r);
  // After a round: the comparison when this is a look (and sets *done when it decides the run).
  CommandResult Look(size_t rounds_done, const std::vector<size_t>& looks, ComparisonReport* report, bool* done);
  size_t rounds_done() const { return rounds_done_; }

 private:
  // Side k (0 or 1) of round r, in ABBA order.
  CommandResult RunSide(size_t r, int k, std::string* line);
  std::string Kept() const { return rounds_done_ == 0 ? "nothing kept" : "the rounds so far are in " + plan_.dir; }

  const AbPlan& plan_;
  std::ostream& progress_;
  RunSet baseline_, current_;
  size_t rounds_done_ = 0;
  double slowest_ = 0;
  const std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

CommandResult Rounds::RunSide(size_t r, int k, std::string* line) {
  const bool is_baseline = (k == 0) == BaselineFirst(r);
  const char* side = is_baseline ? "baseline" : "current";
  const std::string& bin = is_baseline ? plan_.baseline_bin : plan_.current_bin;
  const fs::path round_dir = fs::path(plan_.dir) / RoundName(r);
  const fs::path side_dir = round_dir / side;
  std::vector<std::string> argv = {bin, "run"};
  argv.insert(argv.end(), plan_.run_args.begin(), plan_.run_args.end());
  argv.insert(argv.end(), {"--out", side_dir.string()});
  const fs::path log = round_dir / (std::string(side) + ".log");
  const ChildExit exit = RunChildProcess(argv, log, NextRunTimeout(plan_.round_timeout, slowest_));
  const std::string where = fmt::format("round {}/{}", r + 1, plan_.rounds);
  if (exit.interrupted || InterruptRequested() || exit.exit_code == kExitCodeInterrupted)
    return CommandResult::Failed(kExitCodeInterrupted, fmt::format("interrupted in {}; {}", where, Kept()));
  if (!exit.ok()) {
    const std::string why = LastLine(log);
    if (r == 0 && k == 0 && exit.exit_code == kExitCodeBadInput)
      return BadInput(
          fmt::format("{} binary {} rejected the run arguments: {}", side, bin, why.empty() ? exit.Describe() : why));
    return BadInput(fmt::format("{}: {} binary {} {}{}; {}", where, side, bin, exit.Describe(),
                                why.empty() || exit.timed_out ? "" : ": " + why, Kept()));
  }
  slowest_ = std::max(slowest_, exit.seconds);
  RunResults results;
  Status st = ReadResultsFile((side_dir / "results.json").string(), &results);
  if (!st.ok()) return BadInput(fmt::format("{}: {} binary {}: {}", where, side, bin, st.message()));
  RunSet& set = is_baseline ? baseline_ : current_;
  set.runs.push_back(std::move(results));
  set.sources.push_back(side_dir.string());
  *line += fmt::format(" {} {:.1f} s{}", side, exit.seconds, k == 0 ? "," : "");
  return CommandResult::Ok();
}

CommandResult Rounds::RunRound(size_t r) {
  std::error_code ec;
  fs::create_directories(fs::path(plan_.dir) / RoundName(r), ec);
  if (ec) return BadInput(fmt::format("--out: cannot create '{}': {}", plan_.dir, ec.message()));
  std::string line = fmt::format("ab: round {}/{}{}:", r + 1, plan_.rounds, plan_.sequential ? " at most" : "");
  for (int k = 0; k < 2; ++k) {
    CommandResult side = RunSide(r, k, &line);
    if (side.exit_code == kExitCodeSuccess) continue;
    // Every round left in plan_.dir has both sides: `compare --paired DIR/round-*/baseline -- ...` pairs them.
    fs::remove_all(fs::path(plan_.dir) / RoundName(r), ec);
    return side;
  }
  if (r == 0) {
    Status st = CheckCommonRecords(baseline_.runs[0], current_.runs[0]);
    if (!st.ok()) {
      fs::remove_all(fs::path(plan_.dir) / RoundName(r), ec);
      return BadInput(fmt::format("round 1: {}; nothing kept", st.message()));
    }
  }
  ++rounds_done_;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  progress_ << line << fmt::format(" (elapsed {:.0f} s{})\n", elapsed, r == 0 ? "; rounds in " + plan_.dir : "")
            << std::flush;
  return CommandResult::Ok();
}

CommandResult Rounds::Look(size_t rounds_done, const std::vector<size_t>& looks, ComparisonReport* report, bool* done) {
  const bool last = rounds_done == plan_.rounds;
  if (!last && std::find(looks.begin(), looks.end(), rounds_done) == looks.end()) return CommandResult::Ok();
  CompareOptions options = plan_.options;
  options.looks = looks.size();
  Status st;
  if (rounds_done == 1) {
    report->baseline.source = baseline_.sources[0];
    report->current.source = current_.sources[0];
    st = CompareRuns(baseline_.runs[0], current_.runs[0], options, report);
  } else {
    st = CompareRunSets(baseline_, current_, /*paired=*/true, options, report);
  }
  if (!st.ok()) return BadInput(st.message());
  *done = last || LookEndsRounds(*report);
  if (plan_.sequential) {
    const size_t open = report->Count(Verdict::kInconclusive);
    progress_ << fmt::format("ab: after {} rounds: {} of {} compared rows undecided{}\n", rounds_done, open,
                             report->Count(Outcome::kCompared), *done ? "; done" : "; more rounds until the next look")
              << std::flush;
  }
  return CommandResult::Ok();
}

}  // namespace

bool LookEndsRounds(const ComparisonReport& report) {
  return report.Decided() || report.Count(Verdict::kRegressed) > 0;
}

std::vector<size_t> SequentialLooks(size_t max_rounds) {
  std::vector<size_t> looks;
  for (size_t n = 6; n < max_rounds; n = (n * 3 / 2 + 1) / 2 * 2) looks.push_back(n);
  looks.push_back(max_rounds);
  return looks;
}

double NextRunTimeout(double flag_seconds, double slowest_finished_seconds) {
  if (flag_seconds > 0) return flag_seconds;
  if (slowest_finished_seconds <= 0) return kFirstRunTimeoutSeconds;
  return std::max(kMinRunTimeoutSeconds, kTimeoutFactor * slowest_finished_seconds);
}

CommandResult RunAbRounds(const AbPlan& plan, std::ostream& progress, ComparisonReport* report, size_t* kept) {
  const std::vector<size_t> looks = plan.sequential ? SequentialLooks(plan.rounds) : std::vector<size_t>{plan.rounds};
  Rounds rounds(plan, progress);
  CommandResult result;
  for (size_t r = 0; r < plan.rounds; ++r) {
    result = rounds.RunRound(r);
    if (result.exit_code != kExitCodeSuccess) break;
    bool done = false;
    result = rounds.Look(r + 1, looks, report, &done);
    if (result.exit_code != kExitCodeSuccess || done) break;
  }
  *kept = rounds.rounds_done();
  return result;
}

}  // namespace dbxb
