#include "records/json_fields.h"

#include <fmt/format.h>

#include <climits>
#include <cmath>
#include <limits>

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

Status GetString(const Json& obj, const std::string& path, std::string_view key, std::string* out) {
  const Json* j;
  DBXB_RETURN_IF_ERROR(Find(obj, path, key, false, &j));
  if (!j->is_string()) return TypeError(Member(path, key), "string", *j);
  *out = j->get<std::string>();
  return Status::Ok();
}

Status GetUint(const Json& obj, const std::string& path, std::string_view key, uint64_t* out) {
  const Json* j;
  DBXB_RETURN_IF_ERROR(Find(obj, path, key, false, &j));
  if (!IsUnsigned(*j)) return TypeError(Member(path, key), "unsigned integer", *j);
  *out = j->get<uint64_t>();
  return Status::Ok();
}

Status GetBool(const Json& obj, const std::string& path, std::string_view key, bool* out) {
  const Json* j;
  DBXB_RETURN_IF_ERROR(Find(obj, path, key, false, &j));
  if (!j->is_boolean()) return TypeError(Member(path, key), "boolean", *j);
  *out = j->get<bool>();
  return Status::Ok();
}

Status GetDouble(const Json& obj, const std::string& path, std::string_view key, double* out) {
  const Json* j;
  DBXB_RETURN_IF_ERROR(Find(obj, path, key, false, &j));
  return AsDouble(*j, Member(path, key), out);
}

Status GetArray(const Json& obj, const std::string& path, std::string_view key, const Json** out) {
  DBXB_RETURN_IF_ERROR(Find(obj, path, key, false, out));
  if (!(*out)->is_array()) return TypeError(Member(path, key), "array", **out);
  return Status::Ok();
}

// An array of numbers; when `optional`, an absent one leaves *out empty.
Status GetDoubles(const Json& obj, const std::string& path, std::string_view key, bool optional,
                  std::vector<double>* out) {
  const Json* a;
  DBXB_RETURN_IF_ERROR(Find(obj, path, key, optional, &a));
  out->clear();
  if (a == nullptr) return Status::Ok();
  if (!a->is_array()) return TypeError(Member(path, key), "array", *a);
  for (size_t i = 0; i < a->size(); ++i) {
    double v;
    DBXB_RETURN_IF_ERROR(AsDouble((*a)[i], Element(Member(path, key), i), &v));
    out->push_back(v);
  }
  return Status::Ok();
}

Status GetObject(const Json& obj, const std::string& path, std::string_view key, const Json** out) {
  DBXB_RETURN_IF_ERROR(Find(obj, path, key, false, out));
  return AsObject(**out, Member(path, key));
}

// Fields added after the first files were written: absent = the default, present = checked like any other.
Status GetOptionalString(const Json& obj, const std::string& path, std::string_view key, std::string* out) {
  const Json* j;
  DBXB_RETURN_IF_ERROR(Find(obj, path, key, true, &j));
  if (j == nullptr) return Status::Ok();
  return GetString(obj, path, key, out);
}

Status GetOptionalDouble(const Json& obj, const std::string& path, std::string_view key, double* out) {
  const Json* j;
  DBXB_RETURN_IF_ERROR(Find(obj, path, key, true, &j));
  if (j == nullptr) return Status::Ok();
  return AsDouble(*j, Member(path, key), out);
}

Status GetNullableDouble(const Json& obj, const std::string& path, std::string_view key, bool optional,
                         std::optional<double>* out) {
  const Json* j;
  DBXB_RETURN_IF_ERROR(Find(obj, path, key, optional, &j));
  out->reset();
  if (j == nullptr || j->is_null()) return Status::Ok();
  double v = 0;
  DBXB_RETURN_IF_ERROR(AsDouble(*j, Member(path, key), &v));
  *out = v;
  return Status::Ok();
}

Status GetNullableUint(const Json& obj, const std::string& path, std::string_view key, bool optional,
                       std::optional<uint64_t>* out) {
  const Json* j;
  DBXB_RETURN_IF_ERROR(Find(obj, path, key, optional, &j));
  out->reset();
  if (j == nullptr || j->is_null()) return Status::Ok();
  if (!IsUnsigned(*j)) return TypeError(Member(path, key), "unsigned integer or null", *j);
  *out = j->get<uint64_t>();
  return Status::Ok();
}

}  // namespace dbxb::json_fields

namespace dbxb {

using json_fields::Json;

Status JsonFields::Uint32(const char* key, uint32_t* out) const {
  uint64_t v = 0;
  DBXB_RETURN_IF_ERROR(Uint(key, &v));
  if (v > UINT32_MAX) return Status::InvalidArgument(fmt::format("{}: {} is out of range", Member(key), v));
  *out = static_cast<uint32_t>(v);
  return Status::Ok();
}

Status JsonFields::Int(const char* key, int* out) const {
  const Json* j = nullptr;
  DBXB_RETURN_IF_ERROR(json_fields::Find(obj_, path_, key, false, &j));
  if (!j->is_number_integer()) return json_fields::TypeError(Member(key), "integer", *j);
  const int64_t v = j->get<int64_t>();
  if (v < INT_MIN || v > INT_MAX) return Status::InvalidArgument(fmt::format("{}: {} is out of range", Member(key), v));
  *out = static_cast<int>(v);
  return Status::Ok();
}

Status JsonFields::Strings(const char* key, KeyValues* out) const {
  const Json* j = nullptr;
  DBXB_RETURN_IF_ERROR(json_fields::GetObject(obj_, path_, key, &j));
  KeyValues kvs;
  for (auto it = j->begin(); it != j->end(); ++it) {
    if (!it.value().is_string())
      return json_fields::TypeError(json_fields::Member(Member(key), it.key()), "string", it.value());
    kvs.emplace_back(it.key(), it.value().get<std::string>());
  }
  *out = std::move(kvs);
  return Status::Ok();
}

Status JsonFields::StringList(const char* key, std::vector<std::string>* out) const {
  const Json* j = nullptr;
  std::string here;
  DBXB_RETURN_IF_ERROR(Array(key, &j, &here));
  std::vector<std::string> items;
  for (size_t i = 0; i < j->size(); ++i) {
    if (!(*j)[i].is_string()) return json_fields::TypeError(Element(here, i), "string", (*j)[i]);
    items.push_back((*j)[i].get<std::string>());
  }
  *out = std::move(items);
  return Status::Ok();
}

Status JsonFields::Array(const char* key, const Json** out, std::string* path_out) const {
  DBXB_RETURN_IF_ERROR(json_fields::GetArray(obj_, path_, key, out));
  *path_out = Member(key);
  return Status::Ok();
}

Status JsonFields::Object(const char* key, const Json** out, std::string* path_out) const {
  DBXB_RETURN_IF_ERROR(json_fields::GetObject(obj_, path_, key, out));
  *path_out = Member(key);
  return Status::Ok();
}

Json StringsToJson(const KeyValues& kvs) {
  Json obj = Json::object();
  for (const auto& [key, value] : kvs) obj[key] = value;
  return obj;
}

}  // namespace dbxb
