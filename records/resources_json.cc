#include "records/resources_json.h"

#include <fmt/format.h>

#include <cmath>

#include "records/json_fields.h"

namespace dbxb {
namespace {

using Json = nlohmann::ordered_json;

Json Optional(const std::optional<uint64_t>& v) { return v ? Json(*v) : Json(nullptr); }
Json Optional(const std::optional<double>& v) { return v && std::isfinite(*v) ? Json(*v) : Json(nullptr); }

Json ServerToJson(const std::optional<ServerResourceUsage>& server) {
  if (!server) return nullptr;
  const ServerResourceUsage& v = *server;
  return Json{{"cpu_user_ns", v.cpu_user_ns},
              {"cpu_sys_ns", v.cpu_sys_ns},
              {"pss_bytes", v.pss_bytes},
              {"io_read_bytes", v.io_read_bytes},
              {"io_write_bytes", v.io_write_bytes},
              {"rchar", v.rchar},
              {"wchar", v.wchar},
              {"fsync_calls", Optional(v.fsync_calls)},
              {"wal_bytes", Optional(v.wal_bytes)}};
}

// "server": absent in files written before it existed, null for an engine without a server.
Status ServerFromJson(const Json& resources, const std::string& path, std::optional<ServerResourceUsage>* out) {
  out->reset();
  auto it = resources.find("server");
  if (it == resources.end() || it->is_null()) return Status::Ok();
  const std::string here = path + ".server";
  if (!it->is_object())
    return Status::InvalidArgument(fmt::format("{}: expected object or null, got {}", here, it->type_name()));
  ServerResourceUsage v;
  const Json& r = *it;
  DBXB_RETURN_IF_ERROR(json_fields::GetUint(r, here, "cpu_user_ns", &v.cpu_user_ns));
  DBXB_RETURN_IF_ERROR(json_fields::GetUint(r, here, "cpu_sys_ns", &v.cpu_sys_ns));
  DBXB_RETURN_IF_ERROR(json_fields::GetUint(r, here, "pss_bytes", &v.pss_bytes));
  DBXB_RETURN_IF_ERROR(json_fields::GetUint(r, here, "io_read_bytes", &v.io_read_bytes));
  DBXB_RETURN_IF_ERROR(json_fields::GetUint(r, here, "io_write_bytes", &v.io_write_bytes));
  DBXB_RETURN_IF_ERROR(json_fields::GetUint(r, here, "rchar", &v.rchar));
  DBXB_RETURN_IF_ERROR(json_fields::GetUint(r, here, "wchar", &v.wchar));
  DBXB_RETURN_IF_ERROR(json_fields::GetNullableUint(r, here, "fsync_calls", false, &v.fsync_calls));
  DBXB_RETURN_IF_ERROR(json_fields::GetNullableUint(r, here, "wal_bytes", false, &v.wal_bytes));
  *out = v;
  return Status::Ok();
}

}  // namespace

Json ResourcesToJson(const std::optional<ResourceUsage>& usage) {
  if (!usage) return nullptr;
  const ResourceUsage& u = *usage;
  Json j = Json{{"operations", u.operations},
                {"cpu_user_ns", u.cpu_user_ns},
                {"cpu_sys_ns", u.cpu_sys_ns},
                {"cpu_ns_per_op", json_fields::Number(u.cpu_ns_per_op)},
                {"max_rss_bytes", u.max_rss_bytes},
                {"max_rss_scope", u.max_rss_scope},
                {"anon_rss_bytes", u.anon_rss_bytes},
                {"io_read_bytes", u.io_read_bytes},
                {"io_write_bytes", u.io_write_bytes},
                {"rchar", u.rchar},
                {"wchar", u.wchar},
                {"io_write_bytes_per_op", json_fields::Number(u.io_write_bytes_per_op)},
                {"fsync_calls", Optional(u.fsync_calls)},
                {"commits", u.commits},
                {"fsyncs_per_commit", Optional(u.fsyncs_per_commit)},
                {"disk_bytes", u.disk_bytes},
                {"logical_bytes", u.logical_bytes},
                {"live_logical_bytes", u.live_logical_bytes},
                {"write_amplification", Optional(u.write_amplification)},
                {"space_amplification", Optional(u.space_amplification)}};
  if (u.server) j["server"] = ServerToJson(u.server);
  // Only benchmarks with fresh state per iteration have them (older files have neither).
  if (u.setup_fsync_calls || u.setup_io_write_bytes) {
    j["setup_fsync_calls"] = Optional(u.setup_fsync_calls);
    j["setup_io_write_bytes"] = Optional(u.setup_io_write_bytes);
  }
  return j;
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
  using namespace json_fields;  // NOLINT: the one set of field readers (records/json_fields.h)
  ResourceUsage u;
  const Json& r = *it;
  DBXB_RETURN_IF_ERROR(GetUint(r, here, "operations", &u.operations));
  DBXB_RETURN_IF_ERROR(GetUint(r, here, "cpu_user_ns", &u.cpu_user_ns));
  DBXB_RETURN_IF_ERROR(GetUint(r, here, "cpu_sys_ns", &u.cpu_sys_ns));
  DBXB_RETURN_IF_ERROR(GetDouble(r, here, "cpu_ns_per_op", &u.cpu_ns_per_op));
  DBXB_RETURN_IF_ERROR(GetUint(r, here, "max_rss_bytes", &u.max_rss_bytes));
  DBXB_RETURN_IF_ERROR(GetString(r, here, "max_rss_scope", &u.max_rss_scope));
  DBXB_RETURN_IF_ERROR(GetUint(r, here, "anon_rss_bytes", &u.anon_rss_bytes));
  DBXB_RETURN_IF_ERROR(GetUint(r, here, "io_read_bytes", &u.io_read_bytes));
  DBXB_RETURN_IF_ERROR(GetUint(r, here, "io_write_bytes", &u.io_write_bytes));
  DBXB_RETURN_IF_ERROR(GetUint(r, here, "rchar", &u.rchar));
  DBXB_RETURN_IF_ERROR(GetUint(r, here, "wchar", &u.wchar));
  DBXB_RETURN_IF_ERROR(GetDouble(r, here, "io_write_bytes_per_op", &u.io_write_bytes_per_op));
  DBXB_RETURN_IF_ERROR(GetNullableUint(r, here, "fsync_calls", false, &u.fsync_calls));
  DBXB_RETURN_IF_ERROR(GetUint(r, here, "commits", &u.commits));
  DBXB_RETURN_IF_ERROR(GetNullableDouble(r, here, "fsyncs_per_commit", false, &u.fsyncs_per_commit));
  DBXB_RETURN_IF_ERROR(GetUint(r, here, "disk_bytes", &u.disk_bytes));
  DBXB_RETURN_IF_ERROR(GetUint(r, here, "logical_bytes", &u.logical_bytes));
  DBXB_RETURN_IF_ERROR(GetUint(r, here, "live_logical_bytes", &u.live_logical_bytes));
  DBXB_RETURN_IF_ERROR(GetNullableDouble(r, here, "write_amplification", false, &u.write_amplification));
  DBXB_RETURN_IF_ERROR(GetNullableDouble(r, here, "space_amplification", false, &u.space_amplification));
  DBXB_RETURN_IF_ERROR(ServerFromJson(*it, here, &u.server));
  if (it->contains("setup_fsync_calls") || it->contains("setup_io_write_bytes")) {
    DBXB_RETURN_IF_ERROR(GetNullableUint(r, here, "setup_fsync_calls", false, &u.setup_fsync_calls));
    DBXB_RETURN_IF_ERROR(GetNullableUint(r, here, "setup_io_write_bytes", false, &u.setup_io_write_bytes));
  }
  *out = u;
  return Status::Ok();
}

Json InstructionsToJson(const std::optional<InstructionCount>& count) {
  if (!count) return nullptr;
  const InstructionCount& c = *count;
  return Json{{"instructions", c.instructions},
              {"iterations", c.iterations},
              {"operations", c.operations},
              {"per_op", Optional(std::optional<double>(c.per_op))},
              {"tool", c.tool},
              {"refused", c.refused}};
}

Status InstructionsFromJson(const Json& parent, const std::string& path, std::optional<InstructionCount>* out) {
  out->reset();
  auto it = parent.find("instructions");
  if (it == parent.end() || it->is_null()) return Status::Ok();
  const std::string here = path + ".instructions";
  if (!it->is_object())
    return Status::InvalidArgument(fmt::format("{}: expected object or null, got {}", here, it->type_name()));
  InstructionCount c;
  std::optional<double> per_op;
  const JsonFields r(*it, here);
  DBXB_RETURN_IF_ERROR(r.Uint("instructions", &c.instructions));
  DBXB_RETURN_IF_ERROR(r.Uint("iterations", &c.iterations));
  DBXB_RETURN_IF_ERROR(r.Uint("operations", &c.operations));
  DBXB_RETURN_IF_ERROR(r.OptionalDouble("per_op", &per_op));
  DBXB_RETURN_IF_ERROR(r.String("tool", &c.tool));
  DBXB_RETURN_IF_ERROR(r.String("refused", &c.refused));
  c.per_op = per_op.value_or(std::nan(""));
  *out = std::move(c);
  return Status::Ok();
}

}  // namespace dbxb
