// dbx-bench: the command line. Every error becomes one line on stderr and an exit code:
// 0 success, 1 a benchmark failed (wrong result or engine error) or compare found a regression over
// the gate, 2 bad input, 130 interrupted.
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

#include "adapters/adapter.h"
#include "cli/ab_command.h"
#include "cli/calibrate_command.h"
#include "cli/compare_command.h"
#include "cli/merge_command.h"
#include "cli/report_command.h"
#include "cli/run_options.h"
#include "harness/context.h"
#include "harness/interrupt.h"
#include "harness/runner.h"
#include "records/record_names.h"
#include "workloads/suite.h"
#include "writers/markdown_phases.h"

namespace dbxb {
namespace {

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;
constexpr int kExitBadInput = 2;
constexpr int kExitInterrupted = 130;

int Fail(int code, const std::string& message) {
  std::cerr << "dbx-bench: " << message << "\n";
  return code;
}

int Finish(const CommandResult& result) {
  return result.error.empty() ? result.exit_code : Fail(result.exit_code, result.error);
}

std::string CommandLine(int argc, char** argv) {
  std::string out;
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    bool plain = !a.empty() && a.find_first_of(" \t\"'\\$`") == std::string::npos;
    out += (i ? " " : "") + (plain ? a : "'" + a + "'");
  }
  return out;
}

int ListCommand() {
  const AdapterRegistry& registry = BuiltinAdapters();
  fmt::print("Engines:\n");
  for (const auto& f : registry.factories())
    fmt::print("  {:<10} {:<16} {:<42} {}\n", f.name, f.library_version(), f.library_build(), f.description);
  fmt::print("Suites:\n");
  for (const auto& s : BuiltinSuites().suites()) fmt::print("  {:<10} {}\n", s->name(), s->summary());
  return kExitOk;
}

int RunCommand(const RunArgs& args, const std::string& save_baseline, const std::string& command_line) {
  RunPlan plan;
  Status st = ValidateRunArgs(args, BuiltinAdapters(), BuiltinSuites(), &plan);
  if (!st.ok()) return Fail(kExitBadInput, st.message());
  for (const std::string& w : plan.warnings) std::cerr << "dbx-bench: " << w << "\n";
  if (!save_baseline.empty() && !(st = ValidateBaselineName(save_baseline)).ok())
    return Fail(kExitBadInput, "--save-baseline: " + st.message());
  RunEnvironment env;
  env.command_line = command_line;
  env.console = &std::cout;
  env.console_is_tty = isatty(STDOUT_FILENO) != 0;
  RunResults results;
  st = ExecutePlan(plan, env, &results);
  if (!st.ok()) return Fail(st.IsInvalidArgument() ? kExitBadInput : kExitFailed, st.ToString());
  if (results.context.incomplete && !AnythingFinished(results)) {
    return Fail(kExitInterrupted, fmt::format("interrupted before any {} finished: nothing written, {} left as it was",
                                              plan.phase_suite() ? "phase" : "benchmark", plan.out_dir));
  }
  st = WriteOutputs(plan, results);
  if (!st.ok()) return Fail(kExitFailed, st.ToString());
  if (results.context.incomplete) {
    std::string what = plan.phase_suite() ? fmt::format("{} phases", results.phases.size())
                                          : fmt::format("{} finished benchmarks", results.benchmarks.size());
    return Fail(kExitInterrupted, fmt::format("interrupted: {} written to {}, marked incomplete", what, plan.out_dir));
  }
  for (const auto& b : results.benchmarks)
    if (b.error_occurred)
      return Fail(kExitFailed, fmt::format("{}/{}/{} failed: {}", b.suite, b.workload, b.engine, b.error_message));
  for (const auto& p : results.phases)
    if (p.error_occurred) return Fail(kExitFailed, fmt::format("{} failed: {}", PhaseName(p), p.error_message));
  if (!save_baseline.empty()) {
    std::string saved;
    st = SaveBaseline(results, plan.out_dir, save_baseline, &saved);
    if (!st.ok()) return Fail(kExitFailed, st.ToString());
    fmt::print("Saved baseline '{}' as {}\n", save_baseline, saved);
  }
  return kExitOk;
}

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

// `run`: the options of every run, then each suite's own (each name once, in registration order).
CLI::App* AddRunCommand(CLI::App* app, const SuiteRegistry& suites, RunArgs* run) {
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
                  "Cache budget per engine (default 64MiB, unless the suite sizes its caches itself: see README)");
  cmd->add_option("--out", run->out_dir, "Output directory (default: results/<UTC time>)");
  cmd->add_option("--data-dir", run->data_dir, "Where databases are created (default: system temp dir)");
  cmd->add_option("--seed", run->seed, "Seed of every random choice")->capture_default_str();
  cmd->add_option("--format", run->formats, "Comma-separated outputs: json, md, gbench")->capture_default_str();
  cmd->add_option("--baseline", run->baseline, "Engine the Markdown table compares against (default: first)");
  cmd->add_flag("--quick", run->quick, "Short run (options given still apply)" + quick);
  cmd->add_flag("--no-overhead", run->no_overhead, "Skip measuring the harness overhead with the null adapter");
  cmd->add_flag("--no-settle", run->no_settle, "Measure with the background work of a load left in (no settle)");
  cmd->add_option("--engine-option", run->engine_options,
                  "An engine's native setting KEY=VALUE (e.g. sqlite.layout=rowid, lmdb.readahead=off, "
                  "dbx.release_freed_memory=off); repeat for more; see README's native options")
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
  return cmd;
}

int Main(int argc, char** argv) {
  CLI::App app{"dbx-bench: identical workloads on DBX, SQLite, LMDB and RocksDB, with Criterion-grade statistics"};
  app.name("dbx-bench");
  app.set_version_flag("--version", ToolVersion());
  app.require_subcommand(1);

  app.add_subcommand("list", "List the engines (with library versions and builds), suites and workloads");

  RunArgs run;
  CLI::App* run_cmd = AddRunCommand(&app, BuiltinSuites(), &run);
  std::string save_baseline;
  run_cmd->add_option(
      "--save-baseline", save_baseline,
      "After a successful run, keep results.json as baseline NAME: <parent of --out>/baselines/NAME.json");

  CompareArgs compare;
  CLI::App* compare_cmd = AddCompareCommand(&app, &compare);
  ReportArgs report;
  CLI::App* report_cmd = AddReportCommand(&app, &report);
  MergeArgs merge;
  CLI::App* merge_cmd = AddMergeCommand(&app, &merge);
  AbArgs ab;
  CLI::App* ab_cmd = AddAbCommand(&app, &ab);
  CalibrateArgs calibrate;
  CLI::App* calibrate_cmd = AddCalibrateCommand(&app, &calibrate);

  // Every command registered above, in order: the list the unknown-command message gives.
  std::string commands;
  bool known = false;
  for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    commands += (commands.empty() ? "" : ", ") + sub->get_name();
    known |= argc > 1 && sub->get_name() == argv[1];
  }
  if (argc > 1 && argv[1][0] != '-' && !known)
    return Fail(kExitBadInput, fmt::format("unknown command '{}' (commands: {}; see --help)", argv[1], commands));
  if (argc > 1 && argv[1][0] == '-') {
    const std::string first = argv[1];
    if (first != "-h" && first != "--help" && first != "--version")
      return Fail(kExitBadInput, fmt::format("unknown option '{}' before the command (see --help)", first));
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return Fail(kExitBadInput, std::string(e.what()) + " (see --help)");
  }

  // An option given with an empty value ("--engines ''") is a mistake, never a request for the default.
  for (const CLI::App* sub : app.get_subcommands()) {
    for (const CLI::Option* opt : sub->get_options()) {
      if (opt->count() == 0) continue;
      for (const std::string& value : opt->results())
        if (value.empty()) return Fail(kExitBadInput, fmt::format("{}: empty value", opt->get_name()));
    }
  }

  std::string command_line = CommandLine(argc, argv);
  if (app.got_subcommand(compare_cmd)) return Finish(RunCompare(compare, std::cout));
  if (app.got_subcommand(report_cmd)) return Finish(RunReport(report, std::cout));
  if (app.got_subcommand(merge_cmd)) return Finish(RunMerge(merge, std::cout));
  if (app.got_subcommand(calibrate_cmd)) return Finish(RunCalibrate(calibrate, std::cout));
  InstallInterruptHandlers();
  if (app.got_subcommand(ab_cmd)) return Finish(RunAb(ab, std::cout, std::cerr));
  if (app.got_subcommand("list")) return ListCommand();
  if (app.got_subcommand(run_cmd)) return RunCommand(run, save_baseline, command_line);
  return Fail(kExitBadInput, "no command given (see --help)");
}

}  // namespace
}  // namespace dbxb

int main(int argc, char** argv) {
  try {
    return dbxb::Main(argc, argv);
  } catch (const std::exception& e) {
    return dbxb::Fail(dbxb::kExitFailed, std::string("internal error: ") + e.what());
  } catch (...) {
    return dbxb::Fail(dbxb::kExitFailed, "internal error");
  }
}
