#include "cli/gate_options.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include "cli/units.h"
#include "stats/bootstrap.h"

namespace dbxb {

void AddGateOptions(CLI::App* cmd, GateArgs* args) {
  cmd->add_option("--max-regression", args->max_regression,
                  "The gate of timings and counters: regressed when surely worse than this (5% or 0.05)")
      ->capture_default_str();
  cmd->add_option("--max-instruction-regression", args->max_instruction_regression,
                  "The gate of instruction counts (run --measure instructions)")
      ->capture_default_str();
  cmd->add_option("--significance", args->significance, "Family-wise error rate of the verdicts")
      ->capture_default_str();
  cmd->add_flag("--fail-on-inconclusive", args->fail_on_inconclusive,
                "Exit 1 also when a row is inconclusive (the data could not tell)");
  cmd->add_option("--resamples", args->resamples, "Bootstrap resamples (one run per side)")->capture_default_str();
  cmd->add_option("--seed", args->seed, "Seed of the bootstrap")->capture_default_str();
}

Status ParseGateOptions(const GateArgs& args, CompareOptions* o) {
  DBXB_RETURN_IF_ERROR(ParseFractionOption("--max-regression", args.max_regression, &o->max_regression));
  DBXB_RETURN_IF_ERROR(ParseFractionOption("--max-instruction-regression", args.max_instruction_regression,
                                           &o->max_instruction_regression));
  DBXB_RETURN_IF_ERROR(ParseFractionOption("--significance", args.significance, &o->significance));
  if (!(o->significance > 0 && o->significance < 0.5))
    return Status::InvalidArgument(fmt::format("--significance: '{}' is not between 0 and 0.5", args.significance));
  // At least 100 resamples for a usable interval.
  DBXB_RETURN_IF_ERROR(ParseCountOption("--resamples", args.resamples, 100, kMaxResamples, &o->resamples));
  DBXB_RETURN_IF_ERROR(ParseCountOption("--seed", args.seed, 0, UINT64_MAX, &o->seed));
  o->fail_on_inconclusive = args.fail_on_inconclusive;
  return Status::Ok();
}

CommandResult GateOutcome(const ComparisonReport& report, const std::string& regressed_context) {
  if (!report.GateFailed()) return CommandResult::Ok();
  const size_t regressed = report.Count(Verdict::kRegressed);
  if (regressed > 0)
    return CommandResult::Failed(kExitCodeFailure, fmt::format("{} row{} regressed by more than the gate{}", regressed,
                                                               regressed == 1 ? "" : "s", regressed_context));
  const size_t inconclusive = report.Count(Verdict::kInconclusive);
  return CommandResult::Failed(kExitCodeFailure, fmt::format("{} row{} inconclusive (--fail-on-inconclusive)",
                                                             inconclusive, inconclusive == 1 ? "" : "s"));
}

}  // namespace dbxb
