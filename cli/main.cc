// dbx-bench: the command line. Every error becomes one line on stderr and an exit code:
// 0 success, 1 a benchmark failed (wrong result or engine error) or compare found a regression over
// the gate, 2 bad input, 130 interrupted.
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "adapters/adapter.h"
#include "cli/ab_command.h"
#include "cli/calibrate_command.h"
#include "cli/compare_command.h"
#include "cli/list_command.h"
#include "cli/merge_command.h"
#include "cli/report_command.h"
#include "cli/run_command.h"
#include "cli/units.h"
#include "harness/context.h"
#include "harness/signal_handlers.h"
#include "workloads/suite.h"

namespace dbxb {
namespace {

// The one place that prints an error: one line, whatever the message holds (OneLine).
int Fail(int code, const std::string& message) {
  std::cerr << "dbx-bench: " << OneLine(message) << "\n";
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

// The tool's description in --help, naming every engine but null and the build variants.
std::string ToolDescription() {
  std::vector<std::string> engines;
  for (const AdapterFactory& f : BuiltinAdapters().factories())
    if (InDefaultEngines(f)) engines.push_back(f.name);
  return "dbx-bench: identical workloads on every engine (" + JoinList(engines) + "), with Criterion-grade statistics";
}

// Rejects an unknown command or an option before the command; the exit code when it does.
std::optional<int> CheckFirstArgument(CLI::App* app, int argc, char** argv) {
  // Every command registered, in order: the list the unknown-command message gives.
  std::string commands;
  bool known = false;
  for (const CLI::App* sub : app->get_subcommands([](CLI::App*) { return true; })) {
    commands += (commands.empty() ? "" : ", ") + sub->get_name();
    known |= argc > 1 && sub->get_name() == argv[1];
  }
  if (argc > 1 && argv[1][0] != '-' && !known)
    return Fail(kExitCodeBadInput, fmt::format("unknown command '{}' (commands: {}; see --help)", argv[1], commands));
  if (argc > 1 && argv[1][0] == '-') {
    const std::string first = argv[1];
    if (first != "-h" && first != "--help" && first != "--version")
      return Fail(kExitCodeBadInput, fmt::format("unknown option '{}' before the command (see --help)", first));
  }
  return std::nullopt;
}

// Parses the command line into the commands' arguments; the exit code when it should stop here (help,
// version, a parse error, an empty value).
std::optional<int> Parse(CLI::App* app, int argc, char** argv) {
  try {
    app->parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app->exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app->exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app->exit(e);
  } catch (const CLI::ParseError& e) {
    return Fail(kExitCodeBadInput, std::string(e.what()) + " (see --help)");
  }
  // An option given with an empty value ("--engines ''") is a mistake, never a request for the default.
  for (const CLI::App* sub : app->get_subcommands()) {
    for (const CLI::Option* opt : sub->get_options()) {
      if (opt->count() == 0) continue;
      for (const std::string& value : opt->results())
        if (value.empty()) return Fail(kExitCodeBadInput, fmt::format("{}: empty value", opt->get_name()));
    }
  }
  return std::nullopt;
}

int Main(int argc, char** argv) {
  CLI::App app{ToolDescription()};
  app.name("dbx-bench");
  app.set_version_flag("--version", ToolVersion());
  app.require_subcommand(1);

  ListArgs list;
  CLI::App* list_cmd = AddListCommand(&app, &list);

  RunCommandArgs run;
  CLI::App* run_cmd = AddRunCommand(&app, BuiltinSuites(), &run);

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

  if (const std::optional<int> code = CheckFirstArgument(&app, argc, argv)) return *code;
  if (const std::optional<int> code = Parse(&app, argc, argv)) return *code;

  std::string command_line = CommandLine(argc, argv);
  run.argv.assign(argv + 1, argv + argc);
  if (app.got_subcommand(compare_cmd)) return Finish(RunCompare(compare, std::cout));
  if (app.got_subcommand(report_cmd)) return Finish(RunReport(report, std::cout));
  if (app.got_subcommand(merge_cmd)) return Finish(RunMerge(merge, std::cout));
  InstallInterruptHandlers();
  if (app.got_subcommand(calibrate_cmd)) return Finish(RunCalibrate(calibrate, std::cout));
  if (app.got_subcommand(ab_cmd)) return Finish(RunAb(ab, std::cout, std::cerr));
  if (app.got_subcommand(list_cmd)) return Finish(RunList(list, std::cout));
  if (app.got_subcommand(run_cmd)) {
    run.arguments.assign(argv + 2, argv + argc);  // after "run": --clients makes its clients' from them
    return Finish(RunRun(run, command_line, std::cout, std::cerr));
  }
  return Fail(kExitCodeBadInput, "no command given (see --help)");
}

}  // namespace
}  // namespace dbxb

int main(int argc, char** argv) {
  try {
    return dbxb::Main(argc, argv);
  } catch (const std::exception& e) {
    return dbxb::Fail(dbxb::kExitCodeFailure, std::string("internal error: ") + e.what());
  } catch (...) {
    return dbxb::Fail(dbxb::kExitCodeFailure, "internal error");
  }
}
