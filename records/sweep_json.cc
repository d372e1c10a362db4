#include "records/sweep_json.h"

#include <fmt/format.h>

namespace dbxb {

void TakeMemoryMethodParameter(CapacityResult* c) {
  for (auto it = c->parameters.begin(); it != c->parameters.end(); ++it) {
    if (it->first != "memory_method") continue;
    c->memory_method = it->second;
    c->parameters.erase(it);
    return;
  }
}

std::string CapacityContradiction(const CapacityResult& c) {
  if (!(c.capacity_ops_per_sec >= 0))
    return fmt::format("{:g} ops/s: a capacity cannot be negative", c.capacity_ops_per_sec);
  if (c.lower_step < 0) {
    if (c.capacity_ops_per_sec != 0)
      return fmt::format("{:g} ops/s, but lower_step is -1 (no step passed): the capacity must be 0",
                         c.capacity_ops_per_sec);
  } else {
    const CapacityStep& lower = c.steps[static_cast<size_t>(c.lower_step)];
    if (!lower.passed())
      return fmt::format("lower_step {} did not pass (met_sla, kept_up, no error): it cannot give the capacity",
                         c.lower_step);
    if (lower.target_rate != c.capacity_ops_per_sec)
      return fmt::format("{:g} ops/s, but the passing step lower_step {} ran at {:g} ops/s", c.capacity_ops_per_sec,
                         c.lower_step, lower.target_rate);
  }
  for (size_t i = 0; i < c.steps.size(); ++i) {
    if (c.steps[i].passed() && c.steps[i].target_rate > c.capacity_ops_per_sec)
      return fmt::format("{:g} ops/s, but steps[{}] passed at a higher rate ({:g} ops/s)", c.capacity_ops_per_sec, i,
                         c.steps[i].target_rate);
  }
  if (c.upper_step >= 0) {
    const CapacityStep& upper = c.steps[static_cast<size_t>(c.upper_step)];
    if (upper.passed() || !(upper.target_rate > c.capacity_ops_per_sec))
      return fmt::format("upper_step {} ({:g} ops/s) is not a failing step above the capacity ({:g} ops/s)",
                         c.upper_step, upper.target_rate, c.capacity_ops_per_sec);
  }
  return "";
}

}  // namespace dbxb
