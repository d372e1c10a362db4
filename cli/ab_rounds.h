// The rounds of `dbx-bench ab`: each a fresh process of each build (cli/ab_child.h), in ABBA order, and
// the comparison of the paired rounds (compare/compare_runs.h) after the last round, or, with
// `--rounds auto`, at planned looks until every row is decided or one regressed.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "cli/command_result.h"
#include "compare/report.h"

namespace dbxb {

/// What RunAbRounds runs.
struct AbPlan {
  std::string baseline_bin, current_bin;
  std::vector<std::string> run_args;  ///< the arguments of `dbx-bench run`; ab adds --out per run
  std::string dir;                    ///< where round-NN/{baseline,current} go (exists, empty)
  size_t rounds = 10;                 ///< the rounds; with `sequential`, the most it may run
  bool sequential = false;            ///< --rounds auto
  double round_timeout = 0;           ///< seconds one run may take; 0 = derived (NextRunTimeout)
  CompareOptions options;             ///< the comparison's; RunAbRounds sets `looks`
};

/// The rounds after which `--rounds auto` compares: 6, then each look x1.5 rounded up to an even
/// count (whole ABBA pairs), and always max_rounds itself: 6, 10, 16, 20 for 20. Fewer than 6 rounds: one
/// look at max_rounds.
std::vector<size_t> SequentialLooks(size_t max_rounds);

/// Whether `--rounds auto` stops after a look: every compared row is decided, or one regressed. A
/// regression at any planned look is a rejection within the family-wise error (each look gets its share
/// of it, compare/verdict.h), so more rounds could not take it back; they would only cost CI time.
bool LookEndsRounds(const ComparisonReport& report);

/// The first run may take kFirstRunTimeoutSeconds (a build that hangs is found in half an hour, not
/// never); every later one kTimeoutFactor x the slowest run so far, at least kMinRunTimeoutSeconds.
inline constexpr double kFirstRunTimeoutSeconds = 1800;
inline constexpr double kTimeoutFactor = 5;
inline constexpr double kMinRunTimeoutSeconds = 60;

/// The time limit of the next run: `flag_seconds` when > 0, else derived from the slowest finished run
/// (0 when none has finished) as above.
double NextRunTimeout(double flag_seconds, double slowest_finished_seconds);

/// Runs the rounds of `plan`, one progress line per round (and per look) on `progress`, and compares
/// them into *report. A non-OK result (exit 2 or 130, one line) when a run fails, times out or is
/// interrupted — the round it was in is removed (every round left has both sides), the finished
/// rounds stay — when the first round shows that the builds share no benchmark (that round is removed:
/// nothing in it can be compared), or when the rounds cannot be compared.
/// *kept: the rounds left in plan.dir (0: nothing worth keeping, the caller removes what it created).
CommandResult RunAbRounds(const AbPlan& plan, std::ostream& progress, ComparisonReport* report, size_t* kept);

/// Which side runs first in round `round` (0-based): ABBA, so the baseline in even rounds.
inline bool BaselineFirst(size_t round) { return round % 2 == 0; }

}  // namespace dbxb
