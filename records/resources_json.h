// The `resources` object of results.json (records/resource_usage.h; fields in docs/results-schema.md).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "common/status.h"
#include "records/resource_usage.h"

namespace dbxb {

/// The object, or null when `usage` is absent. Absent ratios and counts are written as null.
nlohmann::ordered_json ResourcesToJson(const std::optional<ResourceUsage>& usage);

/// Reads member "resources" of `parent` (at JSON path `path`) into *out: nullopt when it is absent or
/// null (files written before it existed). InvalidArgument naming the field, e.g.
/// "benchmarks[0].resources.fsync_calls: expected unsigned integer or null, got string".
Status ResourcesFromJson(const nlohmann::ordered_json& parent, const std::string& path,
                         std::optional<ResourceUsage>* out);

}  // namespace dbxb
