#include "records/resources_json.h"

#include <fmt/format.h>

#include <cmath>

namespace dbxb {
namespace {

using Json = nlohmann::ordered_json;

Json Optional(const std::optional<uint64_t>& v) { return v ? Json(*v) : Json(nullptr); }
Json Optional(const std::optional<double>& v) { return v && std::isfinite(*v) ? Json(*v) : Json(nullptr); }

bool IsUnsigned(const Json& j) { return j.is_number_unsigned() || (j.is_number_integer() && j.get<int64_t>() >= 0); }

// One member of the resources object, by name, with its path for errors.
class Reader {
 public:
  Reader(const Json& obj, std::string path) : obj_(obj), path_(std::move(path)) {}

  Status Uint(const char* key, uint64_t* out) {
    const Json* j = nullptr;
    DBXB_RETURN_IF_ERROR(Find(key, &j));
    if (!IsUnsigned(*j)) return Wrong(key, "unsigned integer", *j);
    *out = j->get<uint64_t>();
    return Status::Ok();
  }
  Status Double(const char* key, double* out) {
    const Json* j = nullptr;
    DBXB_RETURN_IF_ERROR(Find(key, &j));
    if (!j->is_number()) return Wrong(key, "number", *j);
    *out = j->get<double>();
    return Status::Ok();
  }
  Status String(const char* key, std::string* out) {
    const Json* j = nullptr;
    DBXB_RETURN_IF_ERROR(Find(key, &j));
    if (!j->is_string()) return Wrong(key, "string", *j);
    *out = j->get<std::string>();
    return Status::Ok();
  }
  Status OptionalUint(const char* key, std::optional<uint64_t>* out) {
    const Json* j = nullptr;
    DBXB_RETURN_IF_ERROR(Find(key, &j));
    out->reset();
    if (j->is_null()) return Status::Ok();
    if (!IsUnsigned(*j)) return Wrong(key, "unsigned integer or null", *j);
    *out = j->get<uint64_t>();
    return Status::Ok();
  }
  Status OptionalDouble(const char* key, std::optional<double>* out) {
    const Json* j = nullptr;
    DBXB_RETURN_IF_ERROR(Find(key, &j));
    out->reset();
    if (j->is_null()) return Status::Ok();
    if (!j->is_number()) return Wrong(key, "number or null", *j);
    *out = j->get<double>();
    return Status::Ok();
  }

 private:
  Status Find(const char* key, const Json** out) {
    auto it = obj_.find(key);
    if (it == obj_.end()) return Status::InvalidArgument(fmt::format("{}.{}: missing field", path_, key));
    *out = &*it;
    return Status::Ok();
  }
  Status Wrong(const char* key, const char* expected, const Json& got) {
    return Status::InvalidArgument(fmt::format("{}.{}: expected {}, got {}", path_, key, expected, got.type_name()));
  }

  const Json& obj_;
  std::string path_;
};

}  // namespace

Json ResourcesToJson(const std::optional<ResourceUsage>& usage) {
  if (!usage) return nullptr;
  const ResourceUsage& u = *usage;
  return Json{{"operations", u.operations},
              {"cpu_user_ns", u.cpu_user_ns},
              {"cpu_sys_ns", u.cpu_sys_ns},
              {"cpu_ns_per_op", u.cpu_ns_per_op},
              {"max_rss_bytes", u.max_rss_bytes},
              {"max_rss_scope", u.max_rss_scope},
              {"anon_rss_bytes", u.anon_rss_bytes},
              {"io_read_bytes", u.io_read_bytes},
              {"io_write_bytes", u.io_write_bytes},
              {"rchar", u.rchar},
              {"wchar", u.wchar},
              {"io_write_bytes_per_op", u.io_write_bytes_per_op},
              {"fsync_calls", Optional(u.fsync_calls)},
              {"commits", u.commits},
              {"fsyncs_per_commit", Optional(u.fsyncs_per_commit)},
              {"disk_bytes", u.disk_bytes},
              {"logical_bytes", u.logical_bytes},
              {"live_logical_bytes", u.live_logical_bytes},
              {"write_amplification", Optional(u.write_amplification)},
              {"space_amplification", Optional(u.space_amplification)}};
}

Status ResourcesFromJson(const Json& parent, const std::string& path, std::optional<ResourceUsage>* out) {
  auto it = parent.find("resources");
  if (it == parent.end() || it->is_null()) {
    out->reset();
    return Status::Ok();
  }
  const std::string here = path + ".resources";
  if (!it->is_object())
    return Status::InvalidArgument(fmt::format("{}: expected object or null, got {}", here, it->type_name()));
  ResourceUsage u;
  Reader r(*it, here);
  DBXB_RETURN_IF_ERROR(r.Uint("operations", &u.operations));
  DBXB_RETURN_IF_ERROR(r.Uint("cpu_user_ns", &u.cpu_user_ns));
  DBXB_RETURN_IF_ERROR(r.Uint("cpu_sys_ns", &u.cpu_sys_ns));
  DBXB_RETURN_IF_ERROR(r.Double("cpu_ns_per_op", &u.cpu_ns_per_op));
  DBXB_RETURN_IF_ERROR(r.Uint("max_rss_bytes", &u.max_rss_bytes));
  DBXB_RETURN_IF_ERROR(r.String("max_rss_scope", &u.max_rss_scope));
  DBXB_RETURN_IF_ERROR(r.Uint("anon_rss_bytes", &u.anon_rss_bytes));
  DBXB_RETURN_IF_ERROR(r.Uint("io_read_bytes", &u.io_read_bytes));
  DBXB_RETURN_IF_ERROR(r.Uint("io_write_bytes", &u.io_write_bytes));
  DBXB_RETURN_IF_ERROR(r.Uint("rchar", &u.rchar));
  DBXB_RETURN_IF_ERROR(r.Uint("wchar", &u.wchar));
  DBXB_RETURN_IF_ERROR(r.Double("io_write_bytes_per_op", &u.io_write_bytes_per_op));
  DBXB_RETURN_IF_ERROR(r.OptionalUint("fsync_calls", &u.fsync_calls));
  DBXB_RETURN_IF_ERROR(r.Uint("commits", &u.commits));
  DBXB_RETURN_IF_ERROR(r.OptionalDouble("fsyncs_per_commit", &u.fsyncs_per_commit));
  DBXB_RETURN_IF_ERROR(r.Uint("disk_bytes", &u.disk_bytes));
  DBXB_RETURN_IF_ERROR(r.Uint("logical_bytes", &u.logical_bytes));
  DBXB_RETURN_IF_ERROR(r.Uint("live_logical_bytes", &u.live_logical_bytes));
  DBXB_RETURN_IF_ERROR(r.OptionalDouble("write_amplification", &u.write_amplification));
  DBXB_RETURN_IF_ERROR(r.OptionalDouble("space_amplification", &u.space_amplification));
  *out = u;
  return Status::Ok();
}

}  // namespace dbxb
