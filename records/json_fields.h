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

namespace dbxb {

/// The members of one object (at JSON path `path`) read by the rules above, for the readers of
/// results.json's newer objects (sweep, capacity). Every getter leaves *out unchanged on error; `obj`
/// must outlive the reader.
class JsonFields {
 public:
  using Json = nlohmann::ordered_json;

  /// InvalidArgument "PATH: expected object, got ..." unless `obj` is an object.
  static Status CheckObject(const Json& obj, const std::string& path) { return json_fields::AsObject(obj, path); }
  /// "path[i]".
  static std::string Element(const std::string& path, size_t i) { return json_fields::Element(path, i); }

  JsonFields(const Json& obj, std::string path) : obj_(obj), path_(std::move(path)) {}

  Status Uint(const char* key, uint64_t* out) const { return json_fields::GetUint(obj_, path_, key, out); }
  Status Uint32(const char* key, uint32_t* out) const;
  Status Int(const char* key, int* out) const;
  Status Double(const char* key, double* out) const { return json_fields::GetDouble(obj_, path_, key, out); }
  Status String(const char* key, std::string* out) const { return json_fields::GetString(obj_, path_, key, out); }
  Status Bool(const char* key, bool* out) const { return json_fields::GetBool(obj_, path_, key, out); }
  /// An object of strings, in the file's order.
  Status Strings(const char* key, KeyValues* out) const;
  /// An array of strings.
  Status StringList(const char* key, std::vector<std::string>* out) const;
  /// Required but nullable: null leaves *out empty.
  Status OptionalUint(const char* key, std::optional<uint64_t>* out) const {
    return json_fields::GetNullableUint(obj_, path_, key, false, out);
  }
  Status OptionalDouble(const char* key, std::optional<double>* out) const {
    return json_fields::GetNullableDouble(obj_, path_, key, false, out);
  }
  /// The member, which must be an array; *path_out is its path.
  Status Array(const char* key, const Json** out, std::string* path_out) const;
  /// The member, which must be an object; *path_out is its path.
  Status Object(const char* key, const Json** out, std::string* path_out) const;

  const std::string& path() const { return path_; }
  /// "PATH.key" ("key" at the top level, where the path is "").
  std::string Member(const char* key) const { return json_fields::Member(path_, key); }

 private:
  const Json& obj_;
  std::string path_;
};

/// The writing side of JsonFields::Strings: an object of strings in `kvs`' order (a repeated key keeps
/// its last value).
nlohmann::ordered_json StringsToJson(const KeyValues& kvs);

}  // namespace dbxb
