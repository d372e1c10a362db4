// `dbx-bench calibrate`: how much the adapter and the harness add to each engine.
//
// The measurement is harness/calibrate.h's.
//
//   dbx-bench calibrate [--engines A,B] [--records N] [--rounds R] [--out FILE]
//
// Exit codes: 0 every engine calibrated; 1 a loop failed (wrong value, engine error); 2 bad input.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "cli/command_result.h"
#include "common/status.h"

namespace CLI {
class App;
}

namespace dbxb {

struct CalibrateArgs {
  std::string engines;  ///< comma-separated; empty = every engine with a native loop
  std::string records = "10000";
  std::string rounds = "21";
  std::string out_path;  ///< --out FILE: the ratios as JSON; empty = console only
  std::string data_dir;  ///< where databases are created; empty = the system temp dir
};

CLI::App* AddCalibrateCommand(CLI::App* app, CalibrateArgs* args);

/// Calibrates and prints a table to `console`; writes --out atomically.
CommandResult RunCalibrate(const CalibrateArgs& args, std::ostream& console);

}  // namespace dbxb
