// `dbx-bench ab`: paired A/B rounds across two builds, the way to gate a pull request.
//
//   dbx-bench ab --baseline-bin PATH --current-bin PATH [--rounds N|auto] [--out DIR] [options] -- RUN-ARGS...
//
// Runs `PATH run RUN-ARGS --out DIR/round-NN/SIDE` with each binary, round after round in ABBA order
// (round 1 baseline first, round 2 current first, ...), each a fresh process, so that drift of the
// machine hits both sides alike (cli/ab_rounds.h). The verdict of every row comes from the per-round
// ratios current / baseline (compare/compare_runs.h: paired rounds). Exit codes: 1 a row regressed
// (or, with --fail-on-inconclusive, is inconclusive), 0 otherwise, 2 bad input, a round that failed or
// timed out, or builds with nothing in common (after the first round), 130 interrupted.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "cli/command_result.h"
#include "cli/gate_options.h"
#include "common/status.h"

namespace CLI {
class App;
}

namespace dbxb {

/// The options as typed; RunAb validates every value with one clear message.
struct AbArgs {
  std::string baseline_bin;           ///< --baseline-bin PATH: an executable that behaves as dbx-bench
  std::string current_bin;            ///< --current-bin PATH
  std::string rounds;                 ///< --rounds N or "auto"; default 10, or 1 with --measure instructions
  std::string max_rounds;             ///< --max-rounds N: with --rounds auto, at most this many (default 20)
  std::string round_timeout;          ///< --round-timeout DURATION: the most one run may take (default derived)
  std::string out_dir;                ///< --out DIR (default results/ab-<UTC time>); must be new or empty
  GateArgs gate;                      ///< --max-regression, --significance, --resamples, ... (cli/gate_options.h)
  std::string markdown_path;          ///< --markdown FILE
  std::string json_path;              ///< --json FILE
  bool force = false;                 ///< --force: replace --markdown/--json files dbx-bench did not write
  std::vector<std::string> run_args;  ///< after --: the arguments of `dbx-bench run`
};

/// Registers the `ab` subcommand and its options on `app`, writing what is typed into *args.
CLI::App* AddAbCommand(CLI::App* app, AbArgs* args);

/// Runs the rounds (progress on `progress`), then prints the comparison to `console`, writes
/// DIR/comparison.{md,json} and --markdown / --json atomically. Exit codes as above; bad options are
/// found before anything runs or is created, a binary that rejects RUN-ARGS leaves nothing behind.
CommandResult RunAb(const AbArgs& args, std::ostream& console, std::ostream& progress);

/// OK unless `run_args` sets what ab decides for each round: --out (ab gives every round its own),
/// --save-baseline, or a --format without json (ab reads results.json). Both "--opt VALUE" and
/// "--opt=VALUE" are recognised.
Status ValidateAbRunArgs(const std::vector<std::string>& run_args);

/// The value `run_args` gives `option` ("--opt VALUE" or "--opt=VALUE"), or "" when not given.
std::string RunArgValue(const std::vector<std::string>& run_args, const std::string& option);

}  // namespace dbxb
