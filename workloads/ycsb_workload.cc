#include "workloads/ycsb_workload.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <array>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>

#include "common/file_policy.h"
#include "workloads/java_properties.h"

namespace dbxb {
namespace {

constexpr uint64_t kJavaIntMax = 2147483647;  // YCSB reads these properties with Integer.parseInt
constexpr double kProportionTolerance = 1e-6;
constexpr uint64_t kMaxRecordBytes = uint64_t{64} << 20;  // as dbx-micro's largest value (--value-size)

constexpr std::array<std::string_view, 27> kKnownKeys = {"recordcount",
                                                         "operationcount",
                                                         "workload",
                                                         "readproportion",
                                                         "updateproportion",
                                                         "scanproportion",
                                                         "insertproportion",
                                                         "readmodifywriteproportion",
                                                         "requestdistribution",
                                                         "fieldcount",
                                                         "fieldlength",
                                                         "fieldlengthdistribution",
                                                         "minfieldlength",
                                                         "readallfields",
                                                         "writeallfields",
                                                         "maxscanlength",
                                                         "minscanlength",
                                                         "scanlengthdistribution",
                                                         "insertorder",
                                                         "insertstart",
                                                         "insertcount",
                                                         "hotspotdatafraction",
                                                         "hotspotopnfraction",
                                                         "zeropadding",
                                                         "fieldnameprefix",
                                                         "table",
                                                         "dataintegrity"};

bool IsKnown(std::string_view key) {
  for (std::string_view k : kKnownKeys)
    if (k == key) return true;
  return false;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

// Typed access to the properties of one file, each error naming the file, line and property.
class PropertyReader {
 public:
  PropertyReader(std::string_view source, const std::map<std::string, JavaProperty>& props)
      : source_(source), props_(props) {}

  bool Has(std::string_view key) const { return props_.find(std::string(key)) != props_.end(); }
  int LineOf(std::string_view key) const {
    auto it = props_.find(std::string(key));
    return it == props_.end() ? 0 : it->second.line;
  }

  /// "<file>:<line>: <problem>" at the line of `key`, or "<file>: <problem>" when it is not set.
  Status Error(std::string_view key, std::string_view problem) const {
    const int line = LineOf(key);
    return Status::InvalidArgument(line > 0 ? fmt::format("{}:{}: {}", source_, line, problem)
                                            : fmt::format("{}: {}", source_, problem));
  }

  Status U64(std::string_view key, uint64_t* out, uint64_t max = UINT64_MAX) const {
    const std::string* v = Value(key);
    if (v == nullptr) return Status::Ok();
    std::string_view s = *v;
    if (!s.empty() && s[0] == '+') s.remove_prefix(1);
    const bool negative = !s.empty() && s[0] == '-';
    uint64_t n = 0;
    auto [end, ec] = std::from_chars(s.data() + (negative ? 1 : 0), s.data() + s.size(), n);
    if (s.empty() || end != s.data() + s.size() || (ec != std::errc() && ec != std::errc::result_out_of_range))
      return Error(key, fmt::format("{}: '{}' is not an integer", key, *v));
    if (negative && n != 0) return Error(key, fmt::format("{}: must not be negative, got {}", key, *v));
    if (ec == std::errc::result_out_of_range || n > max)
      return Error(key, fmt::format("{}: {} is too large (at most {})", key, *v, max));
    *out = n;
    return Status::Ok();
  }

  Status Fraction(std::string_view key, double* out) const {
    const std::string* v = Value(key);
    if (v == nullptr) return Status::Ok();
    std::string_view s = *v;
    if (!s.empty() && s[0] == '+') s.remove_prefix(1);
    double d = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), d);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size() || !std::isfinite(d))
      return Error(key, fmt::format("{}: '{}' is not a number", key, *v));
    if (d < 0 || d > 1) return Error(key, fmt::format("{}: must be between 0 and 1, got {}", key, *v));
    *out = d;
    return Status::Ok();
  }

  Status Bool(std::string_view key, bool* out) const {
    const std::string* v = Value(key);
    if (v == nullptr) return Status::Ok();
    if (EqualsIgnoreCase(*v, "true")) {
      *out = true;
    } else if (EqualsIgnoreCase(*v, "false")) {
      *out = false;
    } else {
      return Error(key, fmt::format("{}: expected true or false, got '{}'", key, *v));
    }
    return Status::Ok();
  }

  Status String(std::string_view key, std::string* out) const {
    const std::string* v = Value(key);
    if (v != nullptr) *out = *v;
    return Status::Ok();
  }

  /// The index of the value in `supported`. A value in `unsupported` (a YCSB option dbx-bench lacks)
  /// and any other value get different messages.
  template <size_t N, size_t M>
  Status Choice(std::string_view key, const std::array<std::string_view, N>& supported,
                const std::array<std::string_view, M>& unsupported, int* out) const {
    const std::string* v = Value(key);
    if (v == nullptr) return Status::Ok();
    for (size_t i = 0; i < N; ++i) {
      if (supported[i] == *v) {
        *out = static_cast<int>(i);
        return Status::Ok();
      }
    }
    const std::string list = fmt::format("{}", fmt::join(supported, ", "));
    for (std::string_view u : unsupported)
      if (u == *v)
        return Error(key, fmt::format("{}: '{}' is a YCSB option that dbx-bench does not support (supported: {})", key,
                                      *v, list));
    return Error(key, fmt::format("{}: unknown value '{}' (supported: {})", key, *v, list));
  }

 private:
  const std::string* Value(std::string_view key) const {
    auto it = props_.find(std::string(key));
    return it == props_.end() ? nullptr : &it->second.value;
  }

  std::string_view source_;
  const std::map<std::string, JavaProperty>& props_;
};

constexpr std::array<std::string_view, 5> kRequestDistributions = {"uniform", "zipfian", "latest", "hotspot",
                                                                   "sequential"};

Status ReadProperties(const PropertyReader& r, YcsbWorkload* w) {
  DBXB_RETURN_IF_ERROR(r.String("workload", &w->workload_class));
  // Old files name the class by its pre-2018 package (com.yahoo.ycsb); both mean CoreWorkload.
  if (w->workload_class != "site.ycsb.workloads.CoreWorkload" &&
      w->workload_class != "com.yahoo.ycsb.workloads.CoreWorkload")
    return r.Error("workload", fmt::format("workload: '{}' is not YCSB's CoreWorkload, the only workload class "
                                           "dbx-bench implements",
                                           w->workload_class));
  DBXB_RETURN_IF_ERROR(r.U64("recordcount", &w->record_count));
  DBXB_RETURN_IF_ERROR(r.U64("operationcount", &w->operation_count));
  DBXB_RETURN_IF_ERROR(r.Fraction("readproportion", &w->read_proportion));
  DBXB_RETURN_IF_ERROR(r.Fraction("updateproportion", &w->update_proportion));
  DBXB_RETURN_IF_ERROR(r.Fraction("scanproportion", &w->scan_proportion));
  DBXB_RETURN_IF_ERROR(r.Fraction("insertproportion", &w->insert_proportion));
  DBXB_RETURN_IF_ERROR(r.Fraction("readmodifywriteproportion", &w->read_modify_write_proportion));
  int choice = 0;
  if (r.Has("requestdistribution")) {
    DBXB_RETURN_IF_ERROR(r.Choice("requestdistribution", kRequestDistributions,
                                  std::array<std::string_view, 1>{"exponential"}, &choice));
    w->request_distribution = std::string(kRequestDistributions[choice]);
  }
  DBXB_RETURN_IF_ERROR(r.Fraction("hotspotdatafraction", &w->hotspot_data_fraction));
  DBXB_RETURN_IF_ERROR(r.Fraction("hotspotopnfraction", &w->hotspot_op_fraction));
  DBXB_RETURN_IF_ERROR(r.U64("fieldcount", &w->field_count, kJavaIntMax));
  DBXB_RETURN_IF_ERROR(r.U64("fieldlength", &w->field_length, kJavaIntMax));
  DBXB_RETURN_IF_ERROR(r.U64("minfieldlength", &w->min_field_length, kJavaIntMax));
  choice = static_cast<int>(w->field_length_distribution);
  DBXB_RETURN_IF_ERROR(r.Choice("fieldlengthdistribution",
                                std::array<std::string_view, 3>{"constant", "uniform", "zipfian"},
                                std::array<std::string_view, 1>{"histogram"}, &choice));
  w->field_length_distribution = static_cast<YcsbWorkload::FieldLengthDistribution>(choice);
  DBXB_RETURN_IF_ERROR(r.String("fieldnameprefix", &w->field_name_prefix));
  DBXB_RETURN_IF_ERROR(r.Bool("readallfields", &w->read_all_fields));
  DBXB_RETURN_IF_ERROR(r.Bool("writeallfields", &w->write_all_fields));
  DBXB_RETURN_IF_ERROR(r.Bool("dataintegrity", &w->data_integrity));
  DBXB_RETURN_IF_ERROR(r.U64("minscanlength", &w->min_scan_length, kJavaIntMax));
  DBXB_RETURN_IF_ERROR(r.U64("maxscanlength", &w->max_scan_length, kJavaIntMax));
  choice = static_cast<int>(w->scan_length_distribution);
  DBXB_RETURN_IF_ERROR(r.Choice("scanlengthdistribution", std::array<std::string_view, 2>{"uniform", "zipfian"},
                                std::array<std::string_view, 0>{}, &choice));
  w->scan_length_distribution = static_cast<YcsbWorkload::ScanLengthDistribution>(choice);
  choice = static_cast<int>(w->insert_order);
  DBXB_RETURN_IF_ERROR(r.Choice("insertorder", std::array<std::string_view, 2>{"hashed", "ordered"},
                                std::array<std::string_view, 0>{}, &choice));
  w->insert_order = static_cast<YcsbWorkload::InsertOrder>(choice);
  DBXB_RETURN_IF_ERROR(r.U64("insertstart", &w->insert_start));
  DBXB_RETURN_IF_ERROR(r.U64("insertcount", &w->insert_count, kJavaIntMax));
  DBXB_RETURN_IF_ERROR(r.U64("zeropadding", &w->zero_padding, kJavaIntMax));
  DBXB_RETURN_IF_ERROR(r.String("table", &w->table));
  return Status::Ok();
}

// The combinations of values that cannot be run.
Status Validate(const PropertyReader& r, YcsbWorkload* w) {
  if (w->record_count == 0)
    return r.Error("recordcount", "recordcount: must be at least 1 (it is the number of records loaded)");
  if (!r.Has("insertcount")) {
    if (w->insert_start > w->record_count)
      return r.Error("insertstart",
                     fmt::format("insertstart: {} is beyond recordcount {}", w->insert_start, w->record_count));
    w->insert_count = w->record_count - w->insert_start;
  }
  if (w->insert_start + w->insert_count > w->record_count)
    return r.Error("insertcount", fmt::format("insertstart + insertcount = {} + {} exceeds recordcount {}",
                                              w->insert_start, w->insert_count, w->record_count));

  const double sum = w->read_proportion + w->update_proportion + w->scan_proportion + w->insert_proportion +
                     w->read_modify_write_proportion;
  if (std::fabs(sum - 1.0) > kProportionTolerance) {
    // Point at the last proportion written in the file; the message lists all five.
    std::string_view last;
    for (std::string_view k :
         {"readproportion", "updateproportion", "scanproportion", "insertproportion", "readmodifywriteproportion"})
      if (r.LineOf(k) > r.LineOf(last)) last = k;
    auto item = [&](std::string_view key, double v) {
      return fmt::format("{} {}{}", key, v, r.Has(key) ? "" : " (default)");
    };
    return r.Error(
        last,
        fmt::format("operation proportions sum to {}, not 1 ({}, {}, {}, {}, {}); YCSB would "
                    "rescale them silently, dbx-bench asks you to fix the file",
                    sum, item("readproportion", w->read_proportion), item("updateproportion", w->update_proportion),
                    item("scanproportion", w->scan_proportion), item("insertproportion", w->insert_proportion),
                    item("readmodifywriteproportion", w->read_modify_write_proportion)));
  }

  if (w->field_count == 0) return r.Error("fieldcount", "fieldcount: must be at least 1");
  if (w->field_length == 0) return r.Error("fieldlength", "fieldlength: must be at least 1");
  if (w->field_length_distribution != YcsbWorkload::FieldLengthDistribution::kConstant &&
      w->min_field_length > w->field_length)
    return r.Error("minfieldlength",
                   fmt::format("minfieldlength {} exceeds fieldlength {}", w->min_field_length, w->field_length));
  // A record is generated whole in memory: one of tens of gigabytes would only grow the process.
  if (w->field_count * w->field_length > kMaxRecordBytes) {  // both at most 2^31 - 1: no overflow
    const bool count = r.LineOf("fieldcount") > r.LineOf("fieldlength");
    return r.Error(
        count ? "fieldcount" : "fieldlength",
        fmt::format("fieldcount {} x fieldlength {} is a record of {} bytes, more than the {} MiB "
                    "dbx-bench generates per record",
                    w->field_count, w->field_length, w->field_count * w->field_length, kMaxRecordBytes >> 20));
  }
  if (w->data_integrity && w->field_length_distribution != YcsbWorkload::FieldLengthDistribution::kConstant)
    return r.Error("dataintegrity", "dataintegrity=true needs fieldlengthdistribution=constant (as in YCSB)");

  if (w->scan_proportion > 0) {
    if (w->max_scan_length < 1)
      return r.Error("maxscanlength", fmt::format("scanproportion is {} but maxscanlength is {}: scans need "
                                                  "maxscanlength >= 1",
                                                  w->scan_proportion, w->max_scan_length));
    if (w->min_scan_length < 1) return r.Error("minscanlength", "minscanlength: must be at least 1");
    if (w->min_scan_length > w->max_scan_length)
      return r.Error("minscanlength",
                     fmt::format("minscanlength {} exceeds maxscanlength {}", w->min_scan_length, w->max_scan_length));
  }
  if (w->request_distribution == "hotspot" && w->hotspot_data_fraction == 0)
    return r.Error("hotspotdatafraction", "hotspotdatafraction: a hotspot distribution needs a hot set above 0");
  if (w->zero_padding == 0) return r.Error("zeropadding", "zeropadding: must be at least 1");
  return Status::Ok();
}

}  // namespace

std::string_view YcsbWorkload::KeyChooserName() const {
  return request_distribution == "zipfian" ? std::string_view("scrambled_zipfian")
                                           : std::string_view(request_distribution);
}

Result<YcsbWorkload> ParseYcsbWorkload(std::string_view text, std::string_view source_name) {
  auto parsed = ParseJavaProperties(text, source_name);
  if (!parsed.ok()) return parsed.status();
  YcsbWorkload w;
  w.source = std::string(source_name);
  std::map<std::string, JavaProperty> props;  // the last value of each key wins, as in Java
  for (JavaProperty& p : parsed.value()) {
    auto prev = props.find(p.key);
    if (prev != props.end())
      w.warnings.push_back(fmt::format("{}:{}: '{}' set again, replacing the value of line {}", source_name, p.line,
                                       p.key, prev->second.line));
    if (!IsKnown(p.key)) {
      std::string hint;
      for (std::string_view k : kKnownKeys)
        if (EqualsIgnoreCase(k, p.key)) hint = fmt::format(" (did you mean '{}'? names are case-sensitive)", k);
      w.warnings.push_back(
          fmt::format("{}:{}: '{}' is not a CoreWorkload property; ignored{}", source_name, p.line, p.key, hint));
      w.unknown_properties[p.key] = p.value;
    }
    props[p.key] = std::move(p);
  }
  const PropertyReader reader(source_name, props);
  DBXB_RETURN_IF_ERROR(ReadProperties(reader, &w));
  DBXB_RETURN_IF_ERROR(Validate(reader, &w));
  return w;
}

Result<YcsbWorkload> LoadYcsbWorkloadFile(const std::string& path) {
  std::string text;
  DBXB_RETURN_IF_ERROR(ReadInputFile(path, kMaxWorkloadFileBytes, &text));
  return ParseYcsbWorkload(text, path);
}

}  // namespace dbxb
