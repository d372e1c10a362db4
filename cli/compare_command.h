// `dbx-bench compare`: the CI regression gate, and the named baselines of `run --save-baseline`.
//
//   dbx-bench compare BASELINE CURRENT [options]
//   dbx-bench compare --baseline NAME CURRENT [options]
//   dbx-bench compare BASELINE... -- CURRENT... [--paired] [options]
//
// BASELINE and CURRENT are results.json files or directories holding one. With several runs per side
// (written BASE... -- CURRENT...) the test is on run-level estimates (compare/compare_runs.h); with
// one run per side a regression must also be beyond the noise floor (--noise-floor, or calibrated
// from A/A runs with --aa-runs) to fail the gate. A named baseline is
// <results root>/baselines/NAME.json (results root: --results-root, default "results").
// Exit codes: 0 nothing regressed over the threshold; 1 a regression over it; 2 bad input.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "cli/command_result.h"
#include "cli/gate_options.h"
#include "common/file_policy.h"
#include "common/status.h"
#include "compare/report.h"
#include "records/result.h"

namespace CLI {
class App;
}

namespace dbxb {

/// The options as typed; every value is validated by RunCompare with one clear message.
struct CompareArgs {
  std::vector<std::string> files;  ///< BASELINE CURRENT, or CURRENT alone with --baseline
  /// Where "--" was among `files` (the number of files before it), or npos when it was not given.
  size_t separator = std::string::npos;
  bool paired = false;      ///< --paired: BASE[i] and CURRENT[i] are round i of an `ab` run
  std::string noise_floor;  ///< --noise-floor X; empty = unknown (timing rows of one run per side are inconclusive)
  std::vector<std::string> aa_runs;  ///< --aa-runs FILE,FILE...: A/A runs that calibrate the floor
  std::string baseline_name;         ///< --baseline NAME
  std::string results_root = "results";
  GateArgs gate;              ///< --max-regression, --significance, --resamples, ... (cli/gate_options.h)
  std::string looks = "1";    ///< --looks N: recompute an `ab --rounds auto` run, which corrected for N looks
  std::string markdown_path;  ///< --markdown FILE
  std::string json_path;      ///< --json FILE
  bool force = false;         ///< --force: replace output files dbx-bench did not write
};

/// Registers the `compare` subcommand and its options on `app`, writing what is typed into *args.
CLI::App* AddCompareCommand(CLI::App* app, CompareArgs* args);

/// Runs the comparison: prints the console table to `console`, writes --markdown and --json
/// atomically, and returns exit code 1 when the gate fails. Exit 2 (with a one-line error) for bad
/// options, a missing, corrupt or incompatible results file, runs with nothing in common, or an output
/// file that cannot be written.
CommandResult RunCompare(const CompareArgs& args, std::ostream& console);

/// OK when `name` can name a baseline file: non-empty, at most 100 characters from [A-Za-z0-9._-],
/// and not "." or "..". InvalidArgument saying so otherwise.
Status ValidateBaselineName(std::string_view name);

/// The results root of a run written to `out_dir`: its parent directory ("results" for
/// "results/2026-11-30T15-34-56Z", "." for a directory given without a parent).
std::string ResultsRootFor(const std::string& out_dir);

/// <results_root>/baselines/<name>.json
std::string BaselinePath(const std::string& results_root, const std::string& name);

/// Whether the baseline `name` of a run written to `out_dir` may be saved (a valid name; a baseline file
/// that `files` may replace), checked before the run. InvalidArgument starting with "--save-baseline".
Status CheckSaveBaseline(const FilePolicy& files, const std::string& out_dir, const std::string& name);

/// Saves `results` as the baseline `name` of the run written to `out_dir`: the same bytes as its
/// results.json, written through `files` to BaselinePath(ResultsRootFor(out_dir), name), creating the
/// baselines directory. Stores the path in *path. InvalidArgument for a bad name or a file that is not
/// ours to replace, IOError when the file cannot be written.
Status SaveBaseline(const FilePolicy& files, const RunResults& results, const std::string& out_dir,
                    const std::string& name, std::string* path);

/// `path` itself, or path/results.json when `path` is a directory.
std::string ResolveResultsPath(const std::string& path);
/// What --help calls the inputs that go through ResolveResultsPath (merge, report).
inline constexpr char kResultsInputsHelp[] = "results.json files (or directories with one)";

}  // namespace dbxb
