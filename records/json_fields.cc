#include "records/json_fields.h"

#include <fmt/format.h>

#include <climits>
#include <cmath>
#include <limits>
#include <utility>

namespace dbxb::json_fields {

Json Number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  return v;
}

std::string Member(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : fmt::format("{}.{}", path, key);
}

std::string Element(const std::string& path, size_t i) { return fmt::format("{}[{}]", path, i); }

std::string Describe(const Json& j) {
  if (j.is_number_unsigned()) return "unsigned integer";
  if (j.is_number_integer()) return j.get<int64_t>() < 0 ? "negative integer" : "unsigned integer";
  if (j.is_number_float()) return "floating-point number";
  return j.type_name();
}

// Parsed files hold non-negative integers as unsigned; documents built in memory may hold them as
// signed (`j["n"] = 2`), which is the same value.
bool IsUnsigned(const Json& j) { return j.is_number_unsigned() || (j.is_number_integer() && j.get<int64_t>() >= 0); }

Status TypeError(const std::string& path, std::string_view expected, const Json& got) {
  return Status::InvalidArgument(fmt::format("{}: expected {}, got {}", path, expected, Describe(got)));
}

// The member `key` of object `obj`; *out is null when it is absent (only allowed if `optional`).
Status Find(const Json& obj, const std::string& path, std::string_view key, bool optional, const Json** out) {
  auto it = obj.find(key);
  if (it == obj.end()) {
    *out = nullptr;
    if (optional) return Status::Ok();
    return Status::InvalidArgument(fmt::format("{}: missing field", Member(path, key)));
  }
  *out = &*it;
  return Status::Ok();
}

Status AsObject(const Json& j, const std::string& path) {
  return j.is_object() ? Status::Ok() : TypeError(path, "object", j);
}

Status AsDouble(const Json& j, const std::string& path, double* out) {
  if (j.is_number()) {
    *out = j.get<double>();
    return Status::Ok();
  }
  if (j.is_string()) {
    const std::string& s = j.get_ref<const std::string&>();
    if (s == "NaN")
      *out = std::numeric_limits<double>::quiet_NaN();
    else if (s == "Infinity")
      *out = std::numeric_limits<double>::infinity();
    else if (s == "-Infinity")
      *out = -std::numeric_limits<double>::infinity();
    else
      return Status::InvalidArgument(fmt::format("{}: expected number, got string \"{}\"", path, s));
    return Status::Ok();
  }
  return TypeError(path, "number", j);
}

Status GetObject(const Json& obj, const std::string& path, std::string_view key, const Json** out) {
  DBXB_RETURN_IF_ERROR(Find(obj, path, key, false, out));
  return AsObject(**out, Member(path, key));
}

Status ReadValue(const Json& j, const std::string& path, std::string* out) {
  if (!j.is_string()) return TypeError(path, "string", j);
  *out = j.get<std::string>();
  return Status::Ok();
}

Status ReadValue(const Json& j, const std::string& path, uint64_t* out) {
  if (!IsUnsigned(j)) return TypeError(path, "unsigned integer", j);
  *out = j.get<uint64_t>();
  return Status::Ok();
}

Status ReadValue(const Json& j, const std::string& path, uint32_t* out) {
  uint64_t v = 0;
  DBXB_RETURN_IF_ERROR(ReadValue(j, path, &v));
  if (v > UINT32_MAX)
    return Status::InvalidArgument(fmt::format("{}: {} is out of range (at most {})", path, v, UINT32_MAX));
  *out = static_cast<uint32_t>(v);
  return Status::Ok();
}

Status ReadValue(const Json& j, const std::string& path, int* out) {
  if (!j.is_number_integer()) return TypeError(path, "integer", j);
  const int64_t v = j.get<int64_t>();
  if (v < INT_MIN || v > INT_MAX) return Status::InvalidArgument(fmt::format("{}: {} is out of range", path, v));
  *out = static_cast<int>(v);
  return Status::Ok();
}

Status ReadValue(const Json& j, const std::string& path, bool* out) {
  if (!j.is_boolean()) return TypeError(path, "boolean", j);
  *out = j.get<bool>();
  return Status::Ok();
}

Status ReadValue(const Json& j, const std::string& path, double* out) { return AsDouble(j, path, out); }

Status ReadValue(const Json& j, const std::string& path, KeyValues* out) {
  DBXB_RETURN_IF_ERROR(AsObject(j, path));
  KeyValues kvs;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (!it.value().is_string()) return TypeError(Member(path, it.key()), "string", it.value());
    kvs.emplace_back(it.key(), it.value().get<std::string>());
  }
  *out = std::move(kvs);
  return Status::Ok();
}

Status ReadValue(const Json& j, const std::string& path, std::optional<uint64_t>* out) {
  if (j.is_null()) {
    out->reset();
    return Status::Ok();
  }
  if (!IsUnsigned(j)) return TypeError(path, "unsigned integer or null", j);
  *out = j.get<uint64_t>();
  return Status::Ok();
}

Status ReadValue(const Json& j, const std::string& path, std::pair<double, double>* out) {
  if (!j.is_array() || j.size() != 2) return TypeError(path, "[percentile, ns] pair", j);
  std::pair<double, double> point;
  DBXB_RETURN_IF_ERROR(AsDouble(j[0], Element(path, 0), &point.first));
  DBXB_RETURN_IF_ERROR(AsDouble(j[1], Element(path, 1), &point.second));
  *out = point;
  return Status::Ok();
}

Json StringsToJson(const KeyValues& kvs) {
  Json obj = Json::object();
  for (const auto& [key, value] : kvs) obj[key] = value;
  return obj;
}

}  // namespace dbxb::json_fields
