#include "records/hdr_log.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <ctime>

#include "records/hdr_encoding.h"

namespace dbxb {
namespace {

constexpr std::string_view kLegend =
    "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"";

// java.util.Date#toString in UTC, as HistogramLogWriter prints the start time: "Tue Dec 01 09:14:56 UTC 2026".
std::string JavaDate(double unix_s) {
  // A start time read from someone else's log can be anything: no date outside years 1970..9999.
  if (!(unix_s >= 0.0 && unix_s < 253402300800.0)) return "no calendar date";
  const std::time_t t = static_cast<std::time_t>(std::floor(unix_s));
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%a %b %d %H:%M:%S UTC %Y", &tm);
  return buf;
}

bool ParseDouble(std::string_view text, double* out) {
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return !text.empty() && ec == std::errc() && ptr == text.data() + text.size() && std::isfinite(*out);
}

// The number after `prefix` up to the next space or ']' ("#[BaseTime: 12.5 (seconds..." -> 12.5).
bool HeaderNumber(std::string_view line, std::string_view prefix, double* out) {
  if (line.substr(0, prefix.size()) != prefix) return false;
  line.remove_prefix(prefix.size());
  const size_t end = line.find_first_of(" ]");
  return ParseDouble(line.substr(0, end), out);
}

}  // namespace

std::string HdrLogTag(std::string_view name) {
  std::string out(name);
  for (char& c : out) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                    c == '_' || c == ':' || c == '-';
    if (!ok) c = '_';
  }
  return out;
}

std::string FormatHdrLog(const HdrLog& log) {
  std::string out;
  for (const std::string& c : log.comments) out += "#" + c + "\n";
  out += "#[Histogram log format version 1.3]\n";
  if (log.start_unix_s > 0) {
    out +=
        fmt::format("#[StartTime: {:.3f} (seconds since epoch), {}]\n", log.start_unix_s, JavaDate(log.start_unix_s));
    out += fmt::format("#[BaseTime: {:.3f} (seconds since epoch)]\n", log.start_unix_s);
  }
  out += kLegend;
  out += "\n";
  for (const HdrLogInterval& i : log.intervals) {
    if (!i.tag.empty()) out += "Tag=" + i.tag + ",";
    out += fmt::format("{:.3f},{:.3f},{:.3f},{}\n", i.start_s, i.length_s,
                       static_cast<double>(i.histogram.Max()) / kHdrLogMaxValueUnitRatio, EncodeHdrBase64(i.histogram));
  }
  return out;
}

namespace {

// Makes the intervals' start timestamps relative to StartTime. With a BaseTime they are offsets from it;
// without, values above a year are absolute times (HistogramLogReader's rule) and the others offsets
// from StartTime.
void RebaseStartTimes(bool have_base, double base_time, HdrLog* log) {
  constexpr double kYearSeconds = 365.0 * 24 * 3600;
  double shift = 0;
  if (have_base) {
    if (log->start_unix_s == 0) log->start_unix_s = base_time;
    shift = base_time - log->start_unix_s;
  } else if (!log->intervals.empty() && log->intervals.front().start_s > kYearSeconds) {
    if (log->start_unix_s == 0) log->start_unix_s = log->intervals.front().start_s;
    shift = -log->start_unix_s;
  }
  if (shift != 0)
    for (HdrLogInterval& i : log->intervals) i.start_s += shift;
}

}  // namespace

Result<HdrLog> ParseHdrLog(std::string_view text) {
  HdrLog log;
  double base_time = 0;
  bool have_base = false;
  size_t line_no = 0;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    auto bad = [&](std::string_view what) { return Status::Corruption(fmt::format("line {}: {}", line_no, what)); };
    if (line[0] == '#') {
      double v = 0;
      if (HeaderNumber(line, "#[StartTime: ", &v)) {
        log.start_unix_s = v;
      } else if (HeaderNumber(line, "#[BaseTime: ", &v)) {
        base_time = v;
        have_base = true;
      } else if (line.substr(0, 2) != "#[") {
        log.comments.emplace_back(line.substr(1));
      }
      continue;
    }
    if (line.substr(0, 16) == "\"StartTimestamp\"") continue;
    HdrLogInterval interval;
    if (line.substr(0, 4) == "Tag=") {
      const size_t comma = line.find(',');
      if (comma == std::string_view::npos) return bad("a tag without the interval after it");
      interval.tag = std::string(line.substr(4, comma - 4));
      line.remove_prefix(comma + 1);
    }
    std::string_view fields[4];
    for (int f = 0; f < 4; ++f) {
      const size_t comma = f < 3 ? line.find(',') : std::string_view::npos;
      if (f < 3 && comma == std::string_view::npos)
        return bad("expected START,LENGTH,MAX,HISTOGRAM (an interval line of an HdrHistogram log)");
      fields[f] = line.substr(0, comma);
      line.remove_prefix(comma == std::string_view::npos ? line.size() : comma + 1);
    }
    double max = 0;
    if (!ParseDouble(fields[0], &interval.start_s) || !ParseDouble(fields[1], &interval.length_s) ||
        !ParseDouble(fields[2], &max))
      return bad("the start, length or max is not a number");
    Result<LatencyHistogram> h = DecodeHdrBase64(fields[3]);
    if (!h.ok()) return bad(h.status().message());
    interval.histogram = std::move(h.value());
    log.intervals.push_back(std::move(interval));
  }
  RebaseStartTimes(have_base, base_time, &log);
  return log;
}

HdrLog PhaseHdrLog(const PhaseResult& r, const std::vector<IntervalRecorder>& service,
                   const std::vector<IntervalRecorder>& from_intended) {
  HdrLog log;
  log.start_unix_s = r.start_unix_s;
  const std::string where = r.dataset.empty() ? "" : fmt::format(", {} data set", r.dataset);
  log.comments.push_back(fmt::format("dbx-bench {}{}{} on {}{}: {} operations on {} thread{}", r.suite,
                                     r.workload.empty() ? "" : "/" + r.workload, "/" + r.phase, r.engine, where,
                                     r.operations, r.threads, r.threads == 1 ? "" : "s"));
  log.comments.push_back(
      "Values are nanoseconds (1 ns to 1 h at 3 significant digits); Interval_Max is in milliseconds (max / 10^6)");
  log.comments.push_back(from_intended.empty()
                             ? "Untagged lines: service time of every operation type; Tag=<type>: one type's"
                             : "Untagged lines: service time of every operation type; Tag=<type>: one type's; "
                               "Tag=intended and Tag=intended.<type>: latency from the intended start");
  const double seconds = r.duration_ns / 1e9;
  size_t intervals = 0;
  double interval_s = 1;
  for (const IntervalRecorder& rec : service) {
    intervals = std::max(intervals, rec.IntervalCount());
    interval_s = static_cast<double>(rec.interval_ns()) / 1e9;
  }
  // The interval holding the last completion is the last one written.
  while (intervals > 1 && static_cast<double>(intervals - 1) * interval_s > seconds) --intervals;
  auto add_lines = [&](const std::vector<IntervalRecorder>& recs, const std::string& all_tag,
                       const std::string& prefix) {
    for (size_t i = 0; i < intervals; ++i) {
      HdrLogInterval line;
      line.tag = all_tag;
      line.start_s = static_cast<double>(i) * interval_s;
      const double rest = seconds - line.start_s;
      line.length_s = rest > 0 && rest < interval_s ? rest : interval_s;
      for (const IntervalRecorder& rec : recs)
        if (i < rec.IntervalCount()) line.histogram.Merge(rec.Interval(i));
      log.intervals.push_back(std::move(line));
    }
    for (size_t op = 0; op < recs.size() && op < r.per_op.size(); ++op) {
      if (r.per_op[op].count == 0) continue;
      for (size_t i = 0; i < intervals; ++i) {
        HdrLogInterval line;
        line.tag = prefix + HdrLogTag(r.per_op[op].name);
        line.start_s = static_cast<double>(i) * interval_s;
        const double rest = seconds - line.start_s;
        line.length_s = rest > 0 && rest < interval_s ? rest : interval_s;
        if (i < recs[op].IntervalCount()) line.histogram.Merge(recs[op].Interval(i));
        log.intervals.push_back(std::move(line));
      }
    }
  };
  add_lines(service, "", "");
  if (!from_intended.empty()) add_lines(from_intended, "intended", "intended.");
  std::stable_sort(log.intervals.begin(), log.intervals.end(),
                   [](const HdrLogInterval& a, const HdrLogInterval& b) { return a.start_s < b.start_s; });
  return log;
}

std::string PhaseHdrLogFileName(const PhaseResult& r) {
  std::string name;
  for (const std::string* part : {&r.suite, &r.workload, &r.phase, &r.engine, &r.dataset}) {
    if (part->empty()) continue;
    if (!name.empty()) name += ".";
    name += HdrLogTag(*part);
  }
  return name + ".hlog";
}

}  // namespace dbxb
