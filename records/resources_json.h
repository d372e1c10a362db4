// What a benchmark or phase spent and counted, in results.json: its `resources` object
// (records/resource_usage.h) and a counted benchmark's `instructions` object (InstructionCount,
// records/result.h); fields in docs/results-schema.md. Each list below is the one description of its
// record's JSON, which records/json_schema.h writes and reads: a new field is one line here.
#pragma once

#include "records/json_schema.h"
#include "records/resource_usage.h"
#include "records/result.h"

namespace dbxb {

DBXB_JSON_RECORD(ServerResourceUsage, cpu_user_ns, cpu_sys_ns, pss_bytes, io_read_bytes, io_write_bytes, rchar, wchar,
                 fsync_calls, wal_bytes);

// Absent ratios and counts are null.
template <class V>
void Fields(V& v, json_fields::Record<ResourceUsage> auto& u) {
  using json_fields::kNullUnlessFinite;
  DBXB_JSON_FIELDS(v, u, operations, cpu_user_ns, cpu_sys_ns, cpu_ns_per_op, max_rss_bytes, max_rss_scope,
                   anon_rss_bytes, io_read_bytes, io_write_bytes, rchar, wchar, io_write_bytes_per_op, fsync_calls,
                   commits);
  v("fsyncs_per_commit", u.fsyncs_per_commit, kNullUnlessFinite);
  DBXB_JSON_FIELDS(v, u, disk_bytes, logical_bytes, live_logical_bytes);
  v("write_amplification", u.write_amplification, kNullUnlessFinite);
  v("space_amplification", u.space_amplification, kNullUnlessFinite);
  v("server", u.server, json_fields::kOmitIfEmpty);  // absent in older files; none without a server
  // Only benchmarks with fresh state per iteration have them (older files have neither).
  if (v.Present(u.setup_fsync_calls || u.setup_io_write_bytes, {"setup_fsync_calls", "setup_io_write_bytes"})) {
    DBXB_JSON_FIELDS(v, u, setup_fsync_calls, setup_io_write_bytes);
  }
}

// `run --measure instructions` only; per_op is null when it is not finite (no operations).
template <class V>
void Fields(V& v, json_fields::Record<InstructionCount> auto& c) {
  DBXB_JSON_FIELDS(v, c, instructions, iterations, operations);
  v("per_op", c.per_op, json_fields::kNullUnlessFinite);
  DBXB_JSON_FIELDS(v, c, tool, refused);
}

}  // namespace dbxb

namespace dbxb::json_fields {

// "benchmarks[0].resources: expected object or null, got number", as their first reader said.
template <>
inline constexpr bool kSaysObjectOrNull<ResourceUsage> = true;
template <>
inline constexpr bool kSaysObjectOrNull<ServerResourceUsage> = true;
template <>
inline constexpr bool kSaysObjectOrNull<InstructionCount> = true;

}  // namespace dbxb::json_fields
