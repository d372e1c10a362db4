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
#include <vector>

#include "common/status.h"

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

/// Required members of each type.
Status GetString(const Json& obj, const std::string& path, std::string_view key, std::string* out);
Status GetUint(const Json& obj, const std::string& path, std::string_view key, uint64_t* out);
Status GetBool(const Json& obj, const std::string& path, std::string_view key, bool* out);
Status GetDouble(const Json& obj, const std::string& path, std::string_view key, double* out);
Status GetArray(const Json& obj, const std::string& path, std::string_view key, const Json** out);
Status GetObject(const Json& obj, const std::string& path, std::string_view key, const Json** out);
/// An array of doubles; when `optional`, an absent one leaves *out empty.
Status GetDoubles(const Json& obj, const std::string& path, std::string_view key, bool optional,
                  std::vector<double>* out);

/// Fields added after the first files were written: absent leaves *out as it is (the default);
/// present is checked like a required one.
Status GetOptionalString(const Json& obj, const std::string& path, std::string_view key, std::string* out);
Status GetOptionalDouble(const Json& obj, const std::string& path, std::string_view key, double* out);

/// Nullable fields: null leaves *out empty, and so does absence when `optional` (else it is an error).
Status GetNullableDouble(const Json& obj, const std::string& path, std::string_view key, bool optional,
                         std::optional<double>* out);
Status GetNullableUint(const Json& obj, const std::string& path, std::string_view key, bool optional,
                       std::optional<uint64_t>* out);

}  // namespace dbxb::json_fields
