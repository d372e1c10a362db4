#include "cli/run_command.h"

#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>

#include "adapters/adapter.h"
#include "cli/compare_command.h"
#include "harness/runner.h"
#include "records/record_names.h"
#include "writers/output_formats.h"

namespace dbxb {
namespace {

// A suite option's help: what it sets, and each suite's default, e.g.
// "records in the data set [dbx-micro: 10000; ycsb: the file's recordcount]".
std::string SuiteOptionHelp(const SuiteRegistry& suites, const std::string& name) {
  std::string help, defaults;
  for (const auto& s : suites.suites()) {
    for (const SuiteOption& o : s->options()) {
      if (o.name != name) continue;
      if (help.empty()) help = o.help;
      defaults += fmt::format("{}{}{}", defaults.empty() ? "" : "; ", s->name(),
                              o.default_text.empty() ? "" : ": " + o.default_text);
    }
  }
  return fmt::format("{} [{}]", help, defaults);
}

}  // namespace

// `run`: the options of every run, then each suite's own (each name once, in registration order).
CLI::App* AddRunCommand(CLI::App* app, const SuiteRegistry& suites, RunCommandArgs* args) {
  RunArgs* run = &args->run;
  CLI::App* cmd = app->add_subcommand("run", "Run a suite on some engines and write results");
  std::string suite_names, durabilities, quick;
  for (const auto& s : suites.suites()) {
    suite_names += (suite_names.empty() ? "" : ", ") + std::string(s->name());
    durabilities +=
        fmt::format("{}{} {}", durabilities.empty() ? "" : ", ", s->name(), DurabilityName(s->default_durability()));
    quick += fmt::format("; {}: {}", s->name(), s->quick_summary());
  }
  cmd->add_option("--suite", run->suite,
                  fmt::format("Suite to run: {} (default: {}, unless an option implies another suite)", suite_names,
                              suites.suites().front()->name()));
  cmd->add_option("--engines", run->engines, "Comma-separated engines (default: all but null)");
  cmd->add_option("--durability", run->durability, fmt::format("none | normal | full (default: {})", durabilities));
  cmd->add_option("--cache-size", run->cache_size,
                  "Cache budget per engine (default 64MiB, unless the suite sizes its caches itself: see docs/cli.md)");
  cmd->add_option("--out", run->out_dir, "Output directory (default: results/<UTC time>)");
  cmd->add_option("--data-dir", run->data_dir, "Where databases are created (default: system temp dir)");
  cmd->add_option("--seed", run->seed, "Seed of every random choice")->capture_default_str();
  cmd->add_option("--format", run->formats, "Comma-separated outputs: " + OutputFormatNames())->capture_default_str();
  cmd->add_option("--baseline", run->baseline, "Engine the Markdown table compares against (default: first)");
  cmd->add_flag("--quick", run->quick, "Short run (options given still apply)" + quick);
  cmd->add_flag("--no-overhead", run->no_overhead, "Skip measuring the harness overhead with the null adapter");
  cmd->add_flag("--no-settle", run->no_settle, "Measure with the background work of a load left in (no settle)");
  cmd->add_option("--engine-option", run->engine_options,
                  "An engine's native setting KEY=VALUE (e.g. sqlite.layout=rowid, lmdb.readahead=off, "
                  "dbx.release_freed_memory=off); repeat for more; see docs/engines.md, Native options")
      ->take_all()
      ->allow_extra_args(false);
  cmd->add_flag("--calibrate", run->calibrate,
                "First time each engine's own get/scan/insert loop against the harness's (as `calibrate` does) "
                "and record the ratios with the results");
  for (const auto& s : suites.suites()) {
    for (const SuiteOption& o : s->options()) {
      if (run->suite_options.count(o.name) != 0 || cmd->get_option_no_throw("--" + o.name) != nullptr) continue;
      // Only given options are stored: an absent key means "the suite's default".
      cmd->add_option_function<std::string>(
          "--" + o.name, [run, name = o.name](const std::string& v) { run->suite_options[name] = v; },
          SuiteOptionHelp(suites, o.name));
    }
  }
  cmd->add_option("--save-baseline", args->save_baseline,
                  "After a successful run, keep results.json as baseline NAME: <parent of --out>/baselines/NAME.json");
  return cmd;
}

CommandResult RunRun(const RunCommandArgs& args, const std::string& command_line, std::ostream& console,
                     std::ostream& err) {
  const std::string& save_baseline = args.save_baseline;
  RunPlan plan;
  Status st = ValidateRunArgs(args.run, BuiltinAdapters(), BuiltinSuites(), &plan);
  if (!st.ok()) return BadInput(st.message());
  for (const std::string& w : plan.warnings) err << "dbx-bench: " << w << "\n";
  if (!save_baseline.empty() && !(st = ValidateBaselineName(save_baseline)).ok())
    return BadInput("--save-baseline: " + st.message());
  RunEnvironment env;
  env.command_line = command_line;
  env.console = &console;
  env.console_is_tty = isatty(STDOUT_FILENO) != 0;
  RunResults results;
  st = ExecutePlan(plan, env, &results);
  if (!st.ok())
    return CommandResult::Failed(st.IsInvalidArgument() ? kExitCodeBadInput : kExitCodeFailure, st.ToString());
  if (results.context.incomplete && !AnythingFinished(results)) {
    return CommandResult::Failed(kExitCodeInterrupted,
                                 fmt::format("interrupted before any {} finished: nothing written, {} left as it was",
                                             plan.phase_suite() ? "phase" : "benchmark", plan.out_dir));
  }
  st = WriteOutputs(plan, results);
  if (!st.ok()) return CommandResult::Failed(kExitCodeFailure, st.ToString());
  if (results.context.incomplete) {
    std::string what = plan.phase_suite() ? fmt::format("{} phases", results.phases.size())
                                          : fmt::format("{} finished benchmarks", results.benchmarks.size());
    return CommandResult::Failed(kExitCodeInterrupted,
                                 fmt::format("interrupted: {} written to {}, marked incomplete", what, plan.out_dir));
  }
  for (const auto& b : results.benchmarks)
    if (b.error_occurred)
      return CommandResult::Failed(kExitCodeFailure,
                                   fmt::format("{}/{}/{} failed: {}", b.suite, b.workload, b.engine, b.error_message));
  for (const auto& p : results.phases)
    if (p.error_occurred)
      return CommandResult::Failed(kExitCodeFailure, fmt::format("{} failed: {}", PhaseName(p), p.error_message));
  if (!save_baseline.empty()) {
    std::string saved;
    st = SaveBaseline(results, plan.out_dir, save_baseline, &saved);
    if (!st.ok()) return CommandResult::Failed(kExitCodeFailure, st.ToString());
    console << fmt::format("Saved baseline '{}' as {}\n", save_baseline, saved);
  }
  return CommandResult::Ok();
}

}  // namespace dbxb
