// The `sweep` and `capacity` members of results.json (records/sweep_record.h; fields in
// docs/results-schema.md). Both are written only when the run has them, so files of runs without a
// sweep or a capacity search are unchanged, and files from before either existed still read.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "common/status.h"
#include "records/sweep_record.h"

namespace dbxb {

nlohmann::ordered_json SweepToJson(const SweepInfo& sweep);
nlohmann::ordered_json CapacityToJson(const std::vector<CapacityResult>& capacity);

/// Reads member "sweep" of the top-level object `top`: nullopt when it is absent or null.
/// InvalidArgument naming the field, e.g. "sweep.points[1].status: expected string, got number".
Status SweepFromJson(const nlohmann::ordered_json& top, std::optional<SweepInfo>* out);
/// Reads member "capacity" of `top`: empty when it is absent or null.
Status CapacityFromJson(const nlohmann::ordered_json& top, std::vector<CapacityResult>* out);

}  // namespace dbxb
