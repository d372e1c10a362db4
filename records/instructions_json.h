// The `instructions` object of a benchmark in results.json (InstructionCount, records/result.h; fields in
// docs/results-schema.md): present only for runs of `run --measure instructions`.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "common/status.h"
#include "records/result.h"

namespace dbxb {

/// The object, or null when `count` is absent.
nlohmann::ordered_json InstructionsToJson(const std::optional<InstructionCount>& count);

/// Reads member "instructions" of `parent` (at JSON path `path`) into *out: nullopt when it is absent or
/// null. InvalidArgument naming the field for a wrong type.
Status InstructionsFromJson(const nlohmann::ordered_json& parent, const std::string& path,
                            std::optional<InstructionCount>* out);

}  // namespace dbxb
