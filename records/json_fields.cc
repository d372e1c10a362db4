#include "records/json_fields.h"

#include <fmt/format.h>

#include <climits>

namespace dbxb {
namespace {

using Json = nlohmann::ordered_json;

bool IsUnsigned(const Json& j) { return j.is_number_unsigned() || (j.is_number_integer() && j.get<int64_t>() >= 0); }

}  // namespace

Status JsonFields::CheckObject(const Json& obj, const std::string& path) {
  if (obj.is_object()) return Status::Ok();
  return Status::InvalidArgument(fmt::format("{}: expected object, got {}", path, obj.type_name()));
}

std::string JsonFields::Element(const std::string& path, size_t i) { return fmt::format("{}[{}]", path, i); }

std::string JsonFields::Member(const char* key) const {
  return path_.empty() ? std::string(key) : fmt::format("{}.{}", path_, key);
}

Status JsonFields::Find(const char* key, const Json** out) {
  auto it = obj_.find(key);
  if (it == obj_.end()) return Status::InvalidArgument(fmt::format("{}: missing field", Member(key)));
  *out = &*it;
  return Status::Ok();
}

Status JsonFields::Wrong(const char* key, const char* expected, const Json& got) {
  return Status::InvalidArgument(fmt::format("{}: expected {}, got {}", Member(key), expected, got.type_name()));
}

Status JsonFields::Uint(const char* key, uint64_t* out) {
  const Json* j = nullptr;
  DBXB_RETURN_IF_ERROR(Find(key, &j));
  if (!IsUnsigned(*j)) return Wrong(key, "unsigned integer", *j);
  *out = j->get<uint64_t>();
  return Status::Ok();
}

Status JsonFields::Uint32(const char* key, uint32_t* out) {
  uint64_t v = 0;
  DBXB_RETURN_IF_ERROR(Uint(key, &v));
  if (v > UINT32_MAX) return Status::InvalidArgument(fmt::format("{}: {} is out of range", Member(key), v));
  *out = static_cast<uint32_t>(v);
  return Status::Ok();
}

Status JsonFields::Int(const char* key, int* out) {
  const Json* j = nullptr;
  DBXB_RETURN_IF_ERROR(Find(key, &j));
  if (!j->is_number_integer()) return Wrong(key, "integer", *j);
  const int64_t v = j->get<int64_t>();
  if (v < INT_MIN || v > INT_MAX) return Status::InvalidArgument(fmt::format("{}: {} is out of range", Member(key), v));
  *out = static_cast<int>(v);
  return Status::Ok();
}

Status JsonFields::Double(const char* key, double* out) {
  const Json* j = nullptr;
  DBXB_RETURN_IF_ERROR(Find(key, &j));
  if (!j->is_number()) return Wrong(key, "number", *j);
  *out = j->get<double>();
  return Status::Ok();
}

Status JsonFields::String(const char* key, std::string* out) {
  const Json* j = nullptr;
  DBXB_RETURN_IF_ERROR(Find(key, &j));
  if (!j->is_string()) return Wrong(key, "string", *j);
  *out = j->get<std::string>();
  return Status::Ok();
}

Status JsonFields::Bool(const char* key, bool* out) {
  const Json* j = nullptr;
  DBXB_RETURN_IF_ERROR(Find(key, &j));
  if (!j->is_boolean()) return Wrong(key, "boolean", *j);
  *out = j->get<bool>();
  return Status::Ok();
}

Status JsonFields::Strings(const char* key, KeyValues* out) {
  const Json* j = nullptr;
  DBXB_RETURN_IF_ERROR(Find(key, &j));
  if (!j->is_object()) return Wrong(key, "object", *j);
  KeyValues kvs;
  for (auto it = j->begin(); it != j->end(); ++it) {
    if (!it.value().is_string())
      return Status::InvalidArgument(
          fmt::format("{}.{}: expected string, got {}", Member(key), it.key(), it.value().type_name()));
    kvs.emplace_back(it.key(), it.value().get<std::string>());
  }
  *out = std::move(kvs);
  return Status::Ok();
}

Status JsonFields::StringList(const char* key, std::vector<std::string>* out) {
  const Json* j = nullptr;
  std::string here;
  DBXB_RETURN_IF_ERROR(Array(key, &j, &here));
  std::vector<std::string> items;
  for (size_t i = 0; i < j->size(); ++i) {
    if (!(*j)[i].is_string())
      return Status::InvalidArgument(fmt::format("{}: expected string, got {}", Element(here, i), (*j)[i].type_name()));
    items.push_back((*j)[i].get<std::string>());
  }
  *out = std::move(items);
  return Status::Ok();
}

Status JsonFields::OptionalUint(const char* key, std::optional<uint64_t>* out) {
  const Json* j = nullptr;
  DBXB_RETURN_IF_ERROR(Find(key, &j));
  if (j->is_null()) {
    out->reset();
    return Status::Ok();
  }
  if (!IsUnsigned(*j)) return Wrong(key, "unsigned integer or null", *j);
  *out = j->get<uint64_t>();
  return Status::Ok();
}

Status JsonFields::OptionalDouble(const char* key, std::optional<double>* out) {
  const Json* j = nullptr;
  DBXB_RETURN_IF_ERROR(Find(key, &j));
  if (j->is_null()) {
    out->reset();
    return Status::Ok();
  }
  if (!j->is_number()) return Wrong(key, "number or null", *j);
  *out = j->get<double>();
  return Status::Ok();
}

Status JsonFields::Array(const char* key, const Json** out, std::string* path_out) {
  const Json* j = nullptr;
  DBXB_RETURN_IF_ERROR(Find(key, &j));
  if (!j->is_array()) return Wrong(key, "array", *j);
  *out = j;
  *path_out = Member(key);
  return Status::Ok();
}

Status JsonFields::Object(const char* key, const Json** out, std::string* path_out) {
  const Json* j = nullptr;
  DBXB_RETURN_IF_ERROR(Find(key, &j));
  if (!j->is_object()) return Wrong(key, "object", *j);
  *out = j;
  *path_out = Member(key);
  return Status::Ok();
}

nlohmann::ordered_json StringsToJson(const KeyValues& kvs) {
  Json obj = Json::object();
  for (const auto& [key, value] : kvs) obj[key] = value;
  return obj;
}

}  // namespace dbxb
