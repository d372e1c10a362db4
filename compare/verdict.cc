#include "compare/verdict.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dbxb {

const char* VerdictName(Verdict verdict) {
  static const char* const kNames[] = {"regressed", "inconclusive", "no regression", "improved"};
  return kNames[static_cast<int>(verdict)];
}

Verdict Decide(const Interval& change, Direction direction, double threshold) {
  if (std::isnan(change.lower) || std::isnan(change.upper)) return Verdict::kInconclusive;
  if (direction == Direction::kLowerIsBetter) {
    if (change.lower > threshold) return Verdict::kRegressed;
    if (change.upper < -threshold) return Verdict::kImproved;
    if (change.upper <= threshold) return Verdict::kNoRegression;
    return Verdict::kInconclusive;
  }
  if (change.upper < -threshold) return Verdict::kRegressed;
  if (change.lower > threshold) return Verdict::kImproved;
  if (change.lower >= -threshold) return Verdict::kNoRegression;
  return Verdict::kInconclusive;
}

double DetectableRegression(const Interval& change, Direction direction, double threshold) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (direction == Direction::kLowerIsBetter) {
    if (!(change.lower > -1) || !std::isfinite(change.point)) return kInf;
    return (1 + threshold) * (1 + change.point) / (1 + change.lower) - 1;
  }
  if (!std::isfinite(change.upper) || !(change.point > -1)) return -1;
  return std::max(-1.0, (1 - threshold) * (1 + change.point) / (1 + change.upper) - 1);
}

double FamilyLevel(double alpha, size_t rows, size_t looks) {
  const double tests = static_cast<double>(std::max<size_t>(rows, 1) * std::max<size_t>(looks, 1));
  return 1 - 2 * alpha / tests;
}

Interval WidenedBy(const Interval& change, double allowance) {
  if (allowance == 0) return change;
  Interval out = change;
  if (std::isinf(allowance)) {  // nothing known about the noise between runs: no bound
    out.lower = -1;
    out.upper = std::numeric_limits<double>::infinity();
    return out;
  }
  out.lower = (1 + change.lower) / (1 + allowance) - 1;
  out.upper = (1 + change.upper) * (1 + allowance) - 1;
  return out;
}

}  // namespace dbxb
