#include "cli/calibrate_command.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli/command_options.h"
#include "cli/units.h"
#include "common/file_policy.h"
#include "common/owned_dir.h"
#include "harness/calibrate.h"
#include "harness/signal_handlers.h"
#include "records/json_results.h"

namespace dbxb {

namespace fs = std::filesystem;

CLI::App* AddCalibrateCommand(CLI::App* app, CalibrateArgs* args) {
  CLI::App* cmd = app->add_subcommand(
      "calibrate", "Time each engine's own get/insert/scan loop against the same loop through the harness");
  cmd->add_option("--engines", args->engines, "Comma-separated engines (default: every engine with a native loop)");
  cmd->add_option("--records", args->records, "Records in the data set (default 10000)");
  cmd->add_option("--rounds", args->rounds, "Timed rounds of each side (default 21, at least 3)");
  cmd->add_option("--out", args->out_path, "Write the ratios to this JSON file");
  AddDataDirOption(cmd, &args->data_dir);
  AddForceFlag(cmd, &args->force);
  return cmd;
}

CommandResult RunCalibrate(const CalibrateArgs& args, std::ostream& console) {
  uint64_t records = 0, rounds = 0;
  if (Status s = ParseCountOption("--records", args.records, 1, 100'000'000, &records); !s.ok())
    return BadInput(s.message());
  if (Status s = ParseCountOption("--rounds", args.rounds, 3, 10000, &rounds); !s.ok()) return BadInput(s.message());
  std::vector<const AdapterFactory*> engines;
  const AdapterRegistry& registry = BuiltinAdapters();
  if (args.engines.empty()) {
    for (const AdapterFactory& f : registry.factories())
      if (HasNativeLoop(f) && f.variant_of.empty()) engines.push_back(&f);
  } else {
    for (const std::string& name : SplitList(args.engines)) {
      const AdapterFactory* f = registry.Find(name);
      if (f == nullptr || !HasNativeLoop(*f))
        return BadInput(fmt::format("--engines: unknown engine '{}' (or one without a native loop)", name));
      engines.push_back(f);
    }
  }
  // --out before anything runs: an existing directory or a file that is not ours is bad input now.
  const FilePolicy files("calibrate", args.force);
  if (!args.out_path.empty()) {
    if (Status s = files.CheckOutputFile("--out", args.out_path); !s.ok()) return BadInput(s.message());
  }
  Result<std::string> tmp = TempDirectory();
  if (!tmp.ok()) return BadInput(tmp.status().message());
  const fs::path base = args.data_dir.empty() ? fs::path(*tmp) : fs::path(args.data_dir);
  std::string tmpl = (base / "dbx-bench-calibrate-XXXXXX").string();
  std::error_code ec;
  if (mkdtemp(tmpl.data()) == nullptr)
    return BadInput(fmt::format("--data-dir: cannot create a directory in {}", base.string()));

  std::vector<CalibrationResult> rows;
  console << CalibrationHeader();
  for (const AdapterFactory* engine : engines) {
    for (const std::string& workload : CalibrationWorkloads()) {
      if (InterruptRequested()) break;
      CalibrationResult row = CalibrateOne(*engine, workload, records, rounds, tmpl);
      console << CalibrationLine(row);
      console.flush();
      rows.push_back(std::move(row));
    }
  }
  fs::remove_all(tmpl, ec);
  if (InterruptRequested())
    return CommandResult::Failed(kExitCodeInterrupted, "calibrate: interrupted; nothing written");

  bool failed = false;
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const CalibrationResult& r : rows) {
    failed = failed || !r.error.empty();
    out.push_back(CalibrationToJson(r));  // as in results.json's context.calibration[]
  }
  if (!args.out_path.empty()) {
    nlohmann::ordered_json doc{
        {"records", records}, {"rounds", rounds}, {"get_goal", kCalibrationGetGoal}, {"calibration", std::move(out)}};
    Status st = files.WriteOutputFile("--out", args.out_path, doc.dump(2) + "\n");
    if (!st.ok()) return BadInput(st.message());
  }
  return failed ? CommandResult::Failed(kExitCodeFailure, "calibrate: a loop failed (see above)") : CommandResult::Ok();
}

}  // namespace dbxb
