// The one set of rules for the fields of the JSON the tool writes and reads back (results.json, its
// resources objects): every reader goes through these, so that a number means the same everywhere.
//
// Doubles are JSON numbers, or the strings "NaN", "Infinity" and "-Infinity" for what JSON cannot hold
// (Number writes them so). A nullable field may also be null or absent. Counts are non-negative
// integers. Every error is InvalidArgument naming the field by its path and saying what was expected
// and what was found: "benchmarks[3].samples[0].iterations: expected unsigned integer, got string".
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "common/status.h"
#include "records/sweep_record.h"

namespace dbxb::json_fields {

using Json = nlohmann::ordered_json;

/// `v` as the readers below read it back: a number, or "NaN", "Infinity", "-Infinity".
Json Number(double v);

/// "path.key" ("key" at the top level) and "path[i]": the paths in messages.
std::string Member(const std::string& path, std::string_view key);
std::string Element(const std::string& path, size_t i);
/// "unsigned integer", "negative integer", "floating-point number", or the JSON type's name.
std::string Describe(const Json& j);
/// True for a non-negative integer, whether parsed (unsigned) or built in memory (signed).
bool IsUnsigned(const Json& j);
/// InvalidArgument "<path>: expected <expected>, got <Describe(got)>".
Status TypeError(const std::string& path, std::string_view expected, const Json& got);

/// The member `key` of `obj` (at `path`) in *out; null when absent, which is an error unless `optional`.
Status Find(const Json& obj, const std::string& path, std::string_view key, bool optional, const Json** out);
Status AsObject(const Json& j, const std::string& path);
/// A double by the rules above (not null).
Status AsDouble(const Json& j, const std::string& path, double* out);

/// The member `key` of `obj`, which must be an object; *out points into `obj`.
Status GetObject(const Json& obj, const std::string& path, std::string_view key, const Json** out);

/// One value `j` at `path` by the rules above, for every type a record's field may have
/// (records/json_schema.h reads whole records with them). *out is unchanged on error.
Status ReadValue(const Json& j, const std::string& path, std::string* out);
Status ReadValue(const Json& j, const std::string& path, uint64_t* out);
/// "N is out of range (at most 4294967295)" above 32 bits.
Status ReadValue(const Json& j, const std::string& path, uint32_t* out);
Status ReadValue(const Json& j, const std::string& path, int* out);
Status ReadValue(const Json& j, const std::string& path, bool* out);
Status ReadValue(const Json& j, const std::string& path, double* out);
/// An object of strings, in the file's order.
Status ReadValue(const Json& j, const std::string& path, KeyValues* out);
/// Null leaves *out empty ("expected unsigned integer or null" otherwise).
Status ReadValue(const Json& j, const std::string& path, std::optional<uint64_t>* out);
/// A (percentile, ns) point of a latency curve: a two-element array of doubles.
Status ReadValue(const Json& j, const std::string& path, std::pair<double, double>* out);

/// The writing side of ReadValue(KeyValues): an object of strings in `kvs`' order (a repeated key
/// keeps its last value).
Json StringsToJson(const KeyValues& kvs);

}  // namespace dbxb::json_fields
