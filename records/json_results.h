// results.json: the one machine-readable record of a run, documented field by field in
// docs/results-schema.md. Everything else (Markdown, Google Benchmark JSON, charts, compare) can be
// regenerated from it.
//
// Writing maps RunResults to JSON one to one; reading is strict: every field of the schema must be
// present with the right type (fields documented as optional may be null or absent; unknown fields
// are ignored, so newer files with additions still read). No function here throws.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>

#include "common/status.h"
#include "records/result.h"

namespace dbxb {

/// The version of the schema this build writes and the only one it reads. Bumped on any change
/// that an old reader would misread (renamed, removed or retyped fields); adding a field is not one.
inline constexpr uint64_t kResultsSchemaVersion = 1;

/// The JSON document of `results`. Objects keep the documented field order (ordered_json), so the
/// file reads top-down: schema_version, context, benchmarks. Doubles that are not finite are written
/// as the strings "NaN", "Infinity", "-Infinity" (JSON has no such numbers).
nlohmann::ordered_json ToJson(const RunResults& results);

/// One row of context.calibration[] (the same object `dbx-bench calibrate --out` writes per row).
nlohmann::ordered_json CalibrationToJson(const CalibrationResult& row);

/// Reads a document written by ToJson into *results (left untouched on error).
/// InvalidArgument naming the JSON path and the problem, e.g.
/// "benchmarks[3].samples[0].iterations: expected unsigned integer, got string", or
/// "schema_version: unsupported version 2 (this build reads version 1)".
/// A nlohmann::json argument converts implicitly.
Status FromJson(const nlohmann::ordered_json& json, RunResults* results);

/// ToJson dumped with two-space indentation and a final newline. Doubles are printed in the shortest
/// form that reads back to the same bits. Invalid UTF-8 in strings is replaced by U+FFFD instead of
/// failing.
std::string SerializeResults(const RunResults& results);

/// Parses `text` (JSON) and reads it with FromJson. Corruption when `text` is not JSON (truncated,
/// empty, garbage), with the parser's line and column; otherwise as FromJson.
Status ParseResults(std::string_view text, RunResults* results);

/// Reads the file at `path` with ParseResults; every error message starts with `path`, e.g.
/// "results.json: benchmarks[3].samples[0].iterations: expected unsigned integer, got string".
/// IOError when the file cannot be read.
Status ReadResultsFile(const std::string& path, RunResults* results);

/// Writes SerializeResults(results) to `path` atomically (see WriteFileAtomically).
Status WriteResultsFile(const std::string& path, const RunResults& results);

}  // namespace dbxb
