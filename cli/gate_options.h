// The options of the gate that `compare` and `ab` share: its thresholds, its family-wise error rate, the
// bootstrap's resamples and seed, and whether an inconclusive row fails. One place registers and parses
// them for both commands.
#pragma once

#include <string>

#include "cli/command_result.h"
#include "common/status.h"
#include "compare/report.h"

namespace CLI {
class App;
}

namespace dbxb {

/// The options as typed.
struct GateArgs {
  std::string max_regression = "5%";
  std::string max_instruction_regression = "1%";
  std::string significance = "0.05";
  std::string resamples = "100000";
  std::string seed = "0";
  bool fail_on_inconclusive = false;
};

/// Registers --max-regression, --max-instruction-regression, --significance, --fail-on-inconclusive,
/// --resamples and --seed on `cmd`.
void AddGateOptions(CLI::App* cmd, GateArgs* args);

/// The options into *o: fractions for the thresholds and 0 < significance < 0.5, 100 to kMaxResamples
/// resamples, any seed. InvalidArgument naming the option.
[[nodiscard]] Status ParseGateOptions(const GateArgs& args, CompareOptions* o);

/// The gate's verdict on `report` as the command's result: OK, or exit 1 saying how many rows regressed
/// (followed by `regressed_context`, e.g. " over 6 paired rounds") or were inconclusive under
/// --fail-on-inconclusive.
CommandResult GateOutcome(const ComparisonReport& report, const std::string& regressed_context = "");

}  // namespace dbxb
