#include "cli/run_command.h"

#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>

#include "adapters/adapter.h"
#include "cli/command_options.h"
#include "cli/compare_command.h"
#include "cli/run_limits.h"
#include "common/owned_dir.h"
#include "common/redact.h"
#include "harness/clients.h"
#include "harness/instructions.h"
#include "harness/runner.h"
#include "harness/sweep.h"
#include "records/record_names.h"
#include "writers/output_formats.h"
#include "writers/sweep_report.h"

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

// Adds each suite's own options to `cmd`: each name once, in registration order, unless `run` has it.
void AddSuiteOptions(const SuiteRegistry& suites, CLI::App* cmd, RunArgs* run) {
  for (const auto& s : suites.suites()) {
    for (const SuiteOption& o : s->options()) {
      if (run->suite_options.count(o.name) != 0 || cmd->get_option_no_throw("--" + o.name) != nullptr) continue;
      // Only given options are stored: an absent key means "the suite's default".
      cmd->add_option_function<std::string>(
          "--" + o.name, [run, name = o.name](const std::string& v) { run->suite_options[name] = v; },
          SuiteOptionHelp(suites, o.name));
    }
  }
}

// Adds the options about what follows the run: --save-baseline, --force, the capacity search, --quiet.
void AddAfterRunOptions(CLI::App* cmd, RunCommandArgs* args) {
  cmd->add_option("--save-baseline", args->save_baseline,
                  "After a successful run, keep results.json as baseline NAME: <parent of --out>/baselines/NAME.json");
  AddForceFlag(cmd, &args->force);
  cmd->add_option("--sla", args->capacity.sla,
                  "Capacity at a latency target, e.g. p99<=1ms: per engine and phase, the highest open-loop rate "
                  "whose latency meets it and whose throughput keeps up (phase suites; see README)");
  cmd->add_option("--sla-latency", args->capacity.sla_latency,
                  "The latency --sla judges: intended (from each operation's intended start, the default) or service");
  cmd->add_option("--sla-step", args->capacity.sla_step,
                  "The shortest capacity step (default 2s; --quick: 1s, and the longest 10s instead of 60s)");
  cmd->add_flag("--quiet", args->quiet, "No progress lines on stderr (sweep points, capacity steps)");
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
  AddDataDirOption(cmd, &run->data_dir);
  cmd->add_option("--seed", run->seed, "Seed of every random choice")->capture_default_str();
  cmd->add_option("--format", run->formats, "Comma-separated outputs: " + OutputFormatNames())->capture_default_str();
  cmd->add_option("--baseline", run->baseline, "Engine the Markdown table compares against (default: first)");
  cmd->add_flag("--quick", run->quick, "Short run (options given still apply)" + quick);
  cmd->add_flag("--no-overhead", run->no_overhead, "Skip measuring the harness overhead with the null adapter");
  cmd->add_flag("--no-settle", run->no_settle, "Measure with the background work of a load left in (no settle)");
  cmd->add_option("--engine-option", run->engine_options,
                  "An engine's native setting KEY=VALUE (e.g. sqlite.layout=rowid, lmdb.readahead=off, "
                  "dbx.release_freed_memory=off); repeat for more; dbx-bench list --engine NAME lists them")
      ->take_all()
      ->allow_extra_args(false);
  cmd->add_option("--clients", run->clients,
                  "Run as N client processes on each database (each with its --threads), started together and "
                  "merged: ycsb on postgres, sqlite or lmdb (see README)");
  // Given by a --clients run to its client processes only.
  cmd->add_option("--client", run->client, "")->group("");
  cmd->add_option("--client-work-dir", run->client_work_dir, "")->group("");
  cmd->add_option("--measure", run->measure,
                  "time (sampled by the clock; default) or instructions (dbx-micro: each benchmark's instructions per "
                  "operation, counted under valgrind's callgrind over a fixed number of iterations)");
  cmd->add_flag("--calibrate", run->calibrate,
                "First time each engine's own get/scan/insert loop against the harness's (as `calibrate` does) "
                "and record the ratios with the results");
  AddSuiteOptions(suites, cmd, run);
  AddAfterRunOptions(cmd, args);
  return cmd;
}

namespace {

// Everything known before the run starts, for every point of a sweep (a later point may load more data
// or write other files than the first): its size against the machine, and every file it will write.
Status CheckBeforeRun(const RunCommandArgs& args, const std::vector<SweepPointPlan>& points, FilePolicy* files) {
  for (const SweepPointPlan& point : points)
    for (const std::string& input : point.plan.work->input_files) files->NoteInput(input);
  DBXB_RETURN_IF_ERROR(TempDirectory().status());  // databases, servers' sockets, callgrind's dumps
  for (const SweepPointPlan& point : points) {
    Status st = CheckRunFits(point.plan);
    if (st.ok()) st = CheckRunOutputs(point.plan, *files);
    if (!st.ok() && !point.values.empty())
      return Status::InvalidArgument(fmt::format("sweep point {}: {}", SweepPointName(point.values), st.message()));
    DBXB_RETURN_IF_ERROR(st);
  }
  const RunPlan& plan = points.front().plan;
  if (!args.save_baseline.empty()) DBXB_RETURN_IF_ERROR(CheckSaveBaseline(*files, plan.out_dir, args.save_baseline));
  return Status::Ok();
}

// Every point's plan (one point without a sweep), validated before anything runs. Points after the first
// share its --out and measure no harness overhead or calibration again (the first point's stand for all).
CommandResult PlanPoints(const RunCommandArgs& args, const SweepRequest& sweep, std::vector<SweepPointPlan>* points,
                         std::vector<std::string>* warnings) {
  std::vector<RunArgs> list = sweep.point_args;
  if (list.empty()) list.push_back(args.run);
  for (size_t k = 0; k < list.size(); ++k) {
    RunArgs& point = list[k];
    if (k > 0) {
      point.out_dir = points->front().plan.out_dir;
      point.no_overhead = true;
      point.calibrate = false;
    }
    SweepPointPlan p;
    if (!sweep.point_values.empty()) p.values = sweep.point_values[k];
    Status st = ValidateRunArgs(point, BuiltinAdapters(), BuiltinSuites(), &p.plan);
    if (st.ok()) st = ApplyCapacityArgs(args.capacity, point, &p.plan);
    if (!st.ok()) {
      return BadInput(p.values.empty() ? st.message()
                                       : fmt::format("sweep point {}: {}", SweepPointName(p.values), st.message()));
    }
    for (const std::string& w : p.plan.warnings)
      if (std::find(warnings->begin(), warnings->end(), w) == warnings->end()) warnings->push_back(w);
    points->push_back(std::move(p));
  }
  return CommandResult::Ok();
}

// The first failure of a finished run, or "".
std::string FirstFailure(const RunResults& results) {
  if (results.sweep) {
    for (const SweepPoint& p : results.sweep->points)
      if (p.status == "failed") return fmt::format("sweep point {} failed: {}", SweepPointName(p.values), p.message);
  }
  for (const auto& b : results.benchmarks)
    if (b.error_occurred) return fmt::format("{}/{}/{} failed: {}", b.suite, b.workload, b.engine, b.error_message);
  for (const auto& p : results.phases)
    if (p.error_occurred) return fmt::format("{} failed: {}", PhaseName(p), p.error_message);
  for (const auto& c : results.capacity)
    if (c.error_occurred) return CapacitySummaryLine(c);
  return "";
}

}  // namespace

CommandResult RunRun(const RunCommandArgs& args, const std::string& command_line, std::ostream& console,
                     std::ostream& err) {
  const std::string& save_baseline = args.save_baseline;
  SweepRequest sweep;
  Status st = PlanSweep(args.run, &sweep);
  if (!st.ok()) return BadInput(st.message());
  std::vector<SweepPointPlan> points;
  std::vector<std::string> warnings;
  if (CommandResult planned = PlanPoints(args, sweep, &points, &warnings); planned.exit_code != kExitCodeSuccess)
    return planned;
  const RunPlan& plan = points.front().plan;
  if (plan.clients > 0 && !sweep.dimensions.empty())
    return BadInput("--clients: a sweep runs one process per point; give one value to each swept option");
  FilePolicy files("run", args.force);
  if (!(st = CheckBeforeRun(args, points, &files)).ok()) return BadInput(st.message());
  if (plan.measure_instructions && !UnderCallgrind()) {  // the run itself happens under callgrind
    auto code = RunSelfUnderCallgrind(args.argv);
    if (!code.ok()) return BadInput(code.status().message());
    return CommandResult::Failed(code.value(), "");
  }
  for (const std::string& w : warnings) err << "dbx-bench: " << OneLine(w) << "\n";
  RunEnvironment env;
  env.command_line = RedactPasswords(command_line);
  env.console = &console;
  env.console_is_tty = isatty(STDOUT_FILENO) != 0;
  env.files = &files;
  env.progress = args.quiet ? nullptr : &err;
  RunResults results;
  st = !sweep.dimensions.empty() ? ExecuteSweep(sweep.dimensions, points, env, &results)
       : plan.clients > 0        ? RunClients(plan, args.arguments, env, &results)
                                 : ExecutePlan(plan, env, &results);
  if (st.IsInterrupted()) return CommandResult::Failed(kExitCodeInterrupted, st.ToString());
  if (!st.ok())
    return st.IsInvalidArgument() ? BadInput(st.message()) : CommandResult::Failed(kExitCodeFailure, st.ToString());
  WriteSweepTables(results, console);  // every point side by side (each point printed its own tables)
  if (results.context.incomplete && !AnythingFinished(results)) {
    return CommandResult::Failed(kExitCodeInterrupted,
                                 fmt::format("interrupted before any {} finished: nothing written, {} left as it was",
                                             plan.phase_suite() ? "phase" : "benchmark", plan.out_dir));
  }
  st = WriteOutputs(plan, results, files);
  if (!st.ok()) return CommandResult::Failed(kExitCodeFailure, st.ToString());
  if (results.context.incomplete) {
    std::string what = !results.capacity.empty() ? fmt::format("{} capacity searches and {} phases",
                                                               results.capacity.size(), results.phases.size())
                       : plan.phase_suite()      ? fmt::format("{} phases", results.phases.size())
                                                 : fmt::format("{} finished benchmarks", results.benchmarks.size());
    return CommandResult::Failed(kExitCodeInterrupted,
                                 fmt::format("interrupted: {} written to {}, marked incomplete", what, plan.out_dir));
  }
  if (std::string failure = FirstFailure(results); !failure.empty())
    return CommandResult::Failed(kExitCodeFailure, failure);
  if (!save_baseline.empty()) {
    std::string saved;
    st = SaveBaseline(files, results, plan.out_dir, save_baseline, &saved);
    if (!st.ok()) return CommandResult::Failed(kExitCodeFailure, st.ToString());
    console << fmt::format("Saved baseline '{}' as {}\n", save_baseline, saved);
  }
  return CommandResult::Ok();
}

}  // namespace dbxb
