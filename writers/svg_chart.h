// Charts of a report as standalone SVG files, written from C++ with no plotting library: a bar per
// engine with its confidence interval as a whisker, and latency-percentile lines per engine. Output is deterministic
// (same input, same bytes), so reports can be checked against golden files, and every piece of text is XML-escaped.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dbxb {

/// Text safe as XML character data or inside a double- or single-quoted attribute value: & < > " '
/// become entities; characters XML 1.0 forbids (control characters other than tab, line feed and
/// carriage return) are dropped; invalid UTF-8 becomes U+FFFD.
std::string XmlEscape(std::string_view text);

struct BarChartEntry {
  std::string label;  ///< the engine
  double value = 0;   ///< nanoseconds
  double lower = 0;   ///< confidence interval of `value`
  double upper = 0;
  bool failed = false;  ///< drawn as the word "failed" instead of a bar
};

struct BarChart {
  std::string title;     ///< e.g. "dbx-micro / get"
  std::string subtitle;  ///< e.g. "bench-host: mean time per iteration, 95 % CI (shorter is faster)"
  std::vector<BarChartEntry> entries;
};

/// The fill colour of an engine's bars: fixed for the known engines (dbx, sqlite, lmdb, rocksdb, null),
/// chosen by a hash of the name from a small palette for any other, so an engine keeps its colour in
/// every chart.
std::string EngineColor(std::string_view engine);

/// A horizontal bar chart of times as a complete SVG document: one row per entry in the given order
/// (label, bar from zero to `value`, whisker from `lower` to `upper`, the value as text), under a
/// title and subtitle, above an axis with round ticks in the time unit of the largest bound (ns, µs,
/// ms or s). The <title> and <desc> elements name every entry with its value, for screen readers and
/// for text search. Non-finite or negative numbers are drawn as zero-length bars, never as garbage.
std::string RenderTimeBarChart(const BarChart& chart);

/// One engine's latency distribution as (percentile, ns) points, percentile in [0, 100].
struct LatencyCurve {
  std::string label;  ///< the engine
  std::vector<std::pair<double, double>> points;
  std::string description;  ///< for <desc>, e.g. "p50 1.234 µs, p99 5.678 µs"
  bool failed = false;      ///< listed in the legend as failed, no line
};

struct LatencyChart {
  std::string title;
  std::string subtitle;
  std::vector<LatencyCurve> curves;
};

/// A latency-percentile chart as a complete SVG document, in the style of HdrHistogram's plots: one
/// line per curve; the x axis spreads the tail, placing percentile p at log10(100 / (100 - p)) with
/// ticks 0 %, 90 %, 99 %, 99.9 %, ... up to the highest percentile below 100 (a point at 100, the
/// maximum, is drawn half a step further, at "max"); the y axis is logarithmic with a tick per power
/// of ten (1 µs, 10 µs, ...). Points that are not finite or not positive are skipped. A legend names
/// every curve in its engine's colour (EngineColor); <title> and <desc> name each engine with its
/// description.
std::string RenderLatencyPercentileChart(const LatencyChart& chart);

}  // namespace dbxb
