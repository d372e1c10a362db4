#include "records/instructions_json.h"

#include <fmt/format.h>

#include <cmath>

namespace dbxb {
namespace {

using Json = nlohmann::ordered_json;

Status Wrong(const std::string& path, const char* key, const char* expected) {
  return Status::InvalidArgument(fmt::format("{}.{}: expected {}", path, key, expected));
}

Status Uint(const Json& j, const std::string& path, const char* key, uint64_t* out) {
  auto it = j.find(key);
  if (it == j.end() || !(it->is_number_unsigned() || (it->is_number_integer() && it->get<int64_t>() >= 0)))
    return Wrong(path, key, "unsigned integer");
  *out = it->get<uint64_t>();
  return Status::Ok();
}

Status String(const Json& j, const std::string& path, const char* key, std::string* out) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_string()) return Wrong(path, key, "string");
  *out = it->get<std::string>();
  return Status::Ok();
}

}  // namespace

Json InstructionsToJson(const std::optional<InstructionCount>& count) {
  if (!count) return nullptr;
  const InstructionCount& c = *count;
  return Json{{"instructions", c.instructions},
              {"iterations", c.iterations},
              {"operations", c.operations},
              {"per_op", std::isfinite(c.per_op) ? Json(c.per_op) : Json(nullptr)},
              {"tool", c.tool},
              {"refused", c.refused}};
}

Status InstructionsFromJson(const Json& parent, const std::string& path, std::optional<InstructionCount>* out) {
  out->reset();
  auto it = parent.find("instructions");
  if (it == parent.end() || it->is_null()) return Status::Ok();
  const std::string here = path + ".instructions";
  if (!it->is_object()) return Status::InvalidArgument(fmt::format("{}: expected object or null", here));
  InstructionCount c;
  DBXB_RETURN_IF_ERROR(Uint(*it, here, "instructions", &c.instructions));
  DBXB_RETURN_IF_ERROR(Uint(*it, here, "iterations", &c.iterations));
  DBXB_RETURN_IF_ERROR(Uint(*it, here, "operations", &c.operations));
  auto per_op = it->find("per_op");
  if (per_op == it->end() || !(per_op->is_number() || per_op->is_null()))
    return Wrong(here, "per_op", "number or null");
  c.per_op = per_op->is_null() ? std::nan("") : per_op->get<double>();
  DBXB_RETURN_IF_ERROR(String(*it, here, "tool", &c.tool));
  DBXB_RETURN_IF_ERROR(String(*it, here, "refused", &c.refused));
  *out = std::move(c);
  return Status::Ok();
}

}  // namespace dbxb
