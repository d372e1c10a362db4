#include "records/json_results.h"

#include <fmt/format.h>

#include <exception>
#include <string>
#include <utility>

#include "common/atomic_file.h"
#include "common/file_policy.h"
#include "records/record_names.h"
#include "records/results_fields.h"

namespace dbxb {

using json_fields::Json;

Json WriteValue(SamplingMode mode) { return SamplingModeName(mode); }

Status ReadValue(const Json& j, const std::string& path, SamplingMode* out) {
  if (!j.is_string()) return json_fields::TypeError(path, "\"linear\" or \"flat\"", j);
  const std::string& s = j.get_ref<const std::string&>();
  if (s == "linear")
    *out = SamplingMode::kLinear;
  else if (s == "flat")
    *out = SamplingMode::kFlat;
  else
    return Status::InvalidArgument(fmt::format("{}: expected \"linear\" or \"flat\", got \"{}\"", path, s));
  return Status::Ok();
}

nlohmann::ordered_json CalibrationToJson(const CalibrationResult& row) { return json_fields::Writer().Value(row); }

nlohmann::ordered_json ToJson(const RunResults& results) {
  const json_fields::Writer writer;
  Json out{{"schema_version", kResultsSchemaVersion}, {"context", writer.Value(results.context)}};
  // Written only by the runs that have them (docs/results-schema.md), so other files are unchanged.
  const json_fields::Writer finite(json_fields::NonFinite::kZero);
  if (results.sweep) out["sweep"] = finite.Value(*results.sweep);
  out["benchmarks"] = writer.Value(results.benchmarks);
  out["phases"] = writer.Value(results.phases);
  if (!results.capacity.empty()) out["capacity"] = finite.Value(results.capacity);
  return out;
}

std::string SerializeResults(const RunResults& results) {
  return ToJson(results).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

Status ParseResults(std::string_view text, RunResults* results) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
    return Status::Corruption("not valid JSON: the file is empty");
  Json json;
  try {
    json = Json::parse(text);
  } catch (const nlohmann::ordered_json::parse_error& e) {
    // what() is "[json.exception.parse_error.101] parse error at line 3, column 5: ..."; keep the
    // part a user can act on.
    std::string what = e.what();
    size_t pos = what.find("] ");
    return Status::Corruption("not valid JSON: " + (pos == std::string::npos ? what : what.substr(pos + 2)));
  } catch (const std::exception& e) {
    return Status::Corruption(std::string("not valid JSON: ") + e.what());
  }
  return FromJson(json, results);
}

Status ReadResultsFile(const std::string& path, RunResults* results) {
  std::string text;
  DBXB_RETURN_IF_ERROR(ReadInputFile(path, kMaxResultsFileBytes, &text));
  return ParseResults(text, results).WithContext(path);
}

Status WriteResultsFile(const std::string& path, const RunResults& results) {
  return WriteFileAtomically(path, SerializeResults(results));
}

}  // namespace dbxb
