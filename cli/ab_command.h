// `dbx-bench ab`: paired A/B rounds across two builds, the way to gate a pull request.
//
//   dbx-bench ab --baseline-bin PATH --current-bin PATH [--rounds N] [--out DIR] [options] -- RUN-ARGS...
//
// Runs `PATH run RUN-ARGS --out DIR/round-NN/SIDE` with each binary for N rounds, in ABBA order
// (round 1 baseline first, round 2 current first, ...), each a fresh process, so that drift of the
// machine hits both sides alike. The verdict of every benchmark and phase comes from the per-round
// ratios current / baseline (compare/compare_runs.h: paired rounds). Exit codes: 0 nothing regressed
// over --max-regression, 1 a regression over it, 2 bad input or a round that failed (the run ends at
// the first failing round, naming it; the rounds so far stay in DIR), 130 interrupted.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "cli/command_result.h"
#include "common/status.h"

namespace CLI {
class App;
}

namespace dbxb {

/// The options as typed; RunAb validates every value with one clear message.
struct AbArgs {
  std::string baseline_bin;  ///< --baseline-bin PATH: an executable that behaves as dbx-bench
  std::string current_bin;   ///< --current-bin PATH
  std::string rounds = "10";
  std::string out_dir;  ///< --out DIR (default results/ab-<UTC time>); must be new or empty
  std::string max_regression = "5%";
  std::string significance = "0.05";
  std::string noise_threshold = "2%";
  std::string resamples = "100000";
  std::string seed = "0";
  std::string markdown_path;          ///< --markdown FILE
  std::string json_path;              ///< --json FILE
  std::vector<std::string> run_args;  ///< after --: the arguments of `dbx-bench run`
};

/// Registers the `ab` subcommand and its options on `app`, writing what is typed into *args.
CLI::App* AddAbCommand(CLI::App* app, AbArgs* args);

/// Runs the rounds (progress on `progress`, one line per round), then prints the comparison to
/// `console`, writes DIR/comparison.{md,json} and --markdown / --json atomically. Exit 1 when the gate
/// fails; 2 with a one-line error for bad options (checked before anything runs or is created), a
/// binary that rejects RUN-ARGS (DIR is then removed again), a round that fails, or results that
/// cannot be compared; 130 when interrupted.
CommandResult RunAb(const AbArgs& args, std::ostream& console, std::ostream& progress);

/// Which side runs first in round `round` (0-based): ABBA, so the baseline in even rounds.
inline bool BaselineFirst(size_t round) { return round % 2 == 0; }

/// OK unless `run_args` sets what ab decides for each round: --out (ab gives every round its own),
/// --save-baseline, or a --format without json (ab reads results.json). Both "--opt VALUE" and
/// "--opt=VALUE" are recognised.
Status ValidateAbRunArgs(const std::vector<std::string>& run_args);

}  // namespace dbxb
