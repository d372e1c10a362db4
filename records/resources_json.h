// What a benchmark or phase spent and counted, in results.json: its `resources` object
// (records/resource_usage.h) and a counted benchmark's `instructions` object (InstructionCount,
// records/result.h); fields in docs/results-schema.md.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "common/status.h"
#include "records/resource_usage.h"
#include "records/result.h"

namespace dbxb {

/// The object, or null when `usage` is absent. Absent ratios and counts are written as null.
nlohmann::ordered_json ResourcesToJson(const std::optional<ResourceUsage>& usage);

/// Reads member "resources" of `parent` (at JSON path `path`) into *out: nullopt when it is absent or
/// null (files written before it existed). InvalidArgument naming the field, e.g.
/// "benchmarks[0].resources.fsync_calls: expected unsigned integer or null, got string".
Status ResourcesFromJson(const nlohmann::ordered_json& parent, const std::string& path,
                         std::optional<ResourceUsage>* out);

/// The `instructions` object of a benchmark (`run --measure instructions`), or null when `count` is absent.
nlohmann::ordered_json InstructionsToJson(const std::optional<InstructionCount>& count);

/// Reads member "instructions" of `parent` into *out: nullopt when it is absent or null. InvalidArgument
/// naming the field for a missing or mistyped one.
Status InstructionsFromJson(const nlohmann::ordered_json& parent, const std::string& path,
                            std::optional<InstructionCount>* out);

}  // namespace dbxb
