// Line charts as standalone SVG documents, for the report's scaling charts (a measure against a swept
// value, one line per engine), capacity curves (latency against achieved throughput: the "hockey stick")
// and per-second time series. No plotting library; deterministic output (same input, same bytes).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace dbxb {

/// How an axis's numbers read.
enum class AxisUnit {
  kNumber,    ///< plain numbers ("1,000", "2.5")
  kRate,      ///< operations per second ("10k/s", "1.2M/s")
  kDuration,  ///< nanoseconds, shown as ns, µs, ms or s
  kSeconds,   ///< seconds since a start ("0 s", "30 s")
};

struct LineChartAxis {
  std::string title;  ///< e.g. "achieved throughput (ops/s)"
  AxisUnit unit = AxisUnit::kNumber;
  /// Categorical axis (x only): the labels, evenly spaced; a point's x is then its label's index.
  std::vector<std::string> categories;
  /// Logarithmic: always, never, or (nullopt) when the finite positive values span more than
  /// kLogScaleSpan (writers/svg_chart.h) — a linear axis from zero otherwise.
  std::optional<bool> log;
};

struct LinePoint {
  double x = 0;
  double y = 0;
  std::string note;        ///< the point's tooltip after the line's label, e.g. "target 12,000 ops/s: passed"
  bool highlight = false;  ///< drawn as a ring (e.g. the capacity)
  bool hollow = false;     ///< drawn as an open circle (e.g. a step that failed)
};

struct ChartLine {
  std::string label;  ///< legend text; its first word picks the colour (EngineColor), so "lmdb (full)" is lmdb's
  std::vector<LinePoint> points;  ///< joined in the given order; non-finite or (log axis) non-positive ones skipped
  bool dashed = false;
};

struct LineChart {
  std::string title;
  std::string subtitle;
  LineChartAxis x, y;
  std::vector<ChartLine> lines;
  /// A horizontal reference line (e.g. the SLA's bound) and its label.
  std::optional<double> threshold;
  std::string threshold_label;
  /// Sentences under the chart, one line each (e.g. what a hollow point means).
  std::vector<std::string> notes;
};

/// A chart with what the report names its file after and the text of its Markdown image.
struct NamedChart {
  std::string stem;  ///< made a file name by the report (lower case, [a-z0-9-]), e.g. "sweep-dbx-micro / get"
  std::string alt;
  LineChart chart;
};

/// The chart as a complete SVG document: grid, ticks in the axes' units, one polyline with a marker per
/// point per line in its engine's colour, the threshold dashed in red, a legend on the right, and a line
/// under the axes for each log scale ("Log scale on y: the values span 348×") and each note. <title>
/// and <desc> name every line with its points, for screen readers and text search.
std::string RenderLineChart(const LineChart& chart);

}  // namespace dbxb
