// Reading the members of one JSON object by name, for the readers of results.json's newer objects
// (resources, sweep, capacity): each error names the field by its JSON path, e.g.
// "capacity[0].steps[2].target_rate: expected number, got string".
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "common/status.h"
#include "records/sweep_record.h"

namespace dbxb {

/// The members of `obj` (at JSON path `path`). Every getter leaves *out unchanged on error; a missing
/// member is "PATH.key: missing field". Not thread-safe; `obj` must outlive the reader.
class JsonFields {
 public:
  using Json = nlohmann::ordered_json;

  /// InvalidArgument "PATH: expected object, got ..." unless `obj` is an object.
  static Status CheckObject(const Json& obj, const std::string& path);
  /// "path[i]".
  static std::string Element(const std::string& path, size_t i);

  JsonFields(const Json& obj, std::string path) : obj_(obj), path_(std::move(path)) {}

  Status Uint(const char* key, uint64_t* out);
  Status Uint32(const char* key, uint32_t* out);
  Status Int(const char* key, int* out);
  Status Double(const char* key, double* out);
  Status String(const char* key, std::string* out);
  Status Bool(const char* key, bool* out);
  /// An object of strings, in the file's order.
  Status Strings(const char* key, KeyValues* out);
  /// An array of strings.
  Status StringList(const char* key, std::vector<std::string>* out);
  /// null leaves *out empty.
  Status OptionalUint(const char* key, std::optional<uint64_t>* out);
  Status OptionalDouble(const char* key, std::optional<double>* out);
  /// The member, which must be an array; *path_out is its path.
  Status Array(const char* key, const Json** out, std::string* path_out);
  /// The member, which must be an object; *path_out is its path.
  Status Object(const char* key, const Json** out, std::string* path_out);

  const std::string& path() const { return path_; }
  /// "PATH.key" ("key" at the top level, where the path is "").
  std::string Member(const char* key) const;

 private:
  Status Find(const char* key, const Json** out);
  Status Wrong(const char* key, const char* expected, const Json& got);

  const Json& obj_;
  std::string path_;
};

/// The writing side of JsonFields::Strings: an object of strings in `kvs`' order (a repeated key keeps
/// its last value).
nlohmann::ordered_json StringsToJson(const KeyValues& kvs);

}  // namespace dbxb
