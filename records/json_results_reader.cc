// The strict reader of results.json (the writer is json_results.cc). The records are read by their
// field lists (records/results_fields.h), which name a failing field by its path
// ("benchmarks[3].samples[0].iterations"), so that a hand-edited or damaged file can be fixed.
#include <fmt/format.h>

#include <exception>
#include <string>
#include <utility>

#include "records/json_results.h"
#include "records/results_fields.h"

namespace dbxb {
namespace {

using Json = nlohmann::ordered_json;
using namespace json_fields;  // NOLINT: the one set of field readers (records/json_fields.h)

Status ResultsFromJson(const Json& j, RunResults* r) {
  if (!j.is_object()) return TypeError("(top level)", "object", j);
  const Json* version;
  DBXB_RETURN_IF_ERROR(Find(j, "", "schema_version", true, &version));
  if (version == nullptr)
    return Status::InvalidArgument("schema_version: missing field (not a dbx-bench results file?)");
  if (!IsUnsigned(*version)) return TypeError("schema_version", "unsigned integer", *version);
  if (version->get<uint64_t>() != kResultsSchemaVersion) {
    return Status::InvalidArgument(fmt::format("schema_version: unsupported version {} (this build reads version {})",
                                               version->get<uint64_t>(), kResultsSchemaVersion));
  }
  Reader top(j, "");
  top("context", r->context);
  top("benchmarks", r->benchmarks);
  DBXB_RETURN_IF_ERROR(top.status());
  // Optional: files written before phases existed have none.
  const Json* phases;
  DBXB_RETURN_IF_ERROR(Find(j, "", "phases", true, &phases));
  if (phases != nullptr && !phases->is_null()) DBXB_RETURN_IF_ERROR(ReadValue(*phases, "phases", &r->phases));
  // Optional: only sweeps and capacity searches write them.
  top("sweep", r->sweep, kOmitIfEmpty);
  DBXB_RETURN_IF_ERROR(top.status());
  const Json* capacity;
  DBXB_RETURN_IF_ERROR(Find(j, "", "capacity", true, &capacity));
  if (capacity == nullptr || capacity->is_null()) return Status::Ok();
  if (!capacity->is_array())
    return Status::InvalidArgument(fmt::format("capacity: expected array, got {}", capacity->type_name()));
  return ReadValue(*capacity, "capacity", &r->capacity);
}

}  // namespace

Status FromJson(const nlohmann::ordered_json& json, RunResults* results) {
  RunResults r;
  // The checks above make every get<> well-typed; the catch is a last line of defence so that no
  // exception can leave this module whatever the document holds.
  try {
    DBXB_RETURN_IF_ERROR(ResultsFromJson(json, &r));
  } catch (const std::exception& e) {
    return Status::InvalidArgument(std::string("unreadable results document: ") + e.what());
  }
  *results = std::move(r);
  return Status::Ok();
}

}  // namespace dbxb
