// The write and space amplification of each engine as one SVG bar chart (two bars per row), for the
// report page. Deterministic output, every text XML-escaped (writers/svg_chart.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace dbxb {

struct AmplificationEntry {
  std::string label;                          ///< "sqlite" or "update / sqlite"
  std::string engine;                         ///< picks the colour (EngineColor)
  std::optional<double> write_amplification;  ///< absent: drawn as "n/a"
  std::optional<double> space_amplification;
};

struct AmplificationChart {
  std::string title;     ///< e.g. "sqlite-vps / cached"
  std::string subtitle;  ///< e.g. "bench-host: bytes written ÷ logical bytes, disk ÷ live bytes"
  std::vector<AmplificationEntry> entries;
};

/// A horizontal bar chart as a complete SVG document: per entry a solid bar (write amplification) and
/// a lighter one under it (space amplification), each with its value ("3.01×" or "n/a"), a dashed line
/// at 1× and an axis from 0 with round ticks. <title> and <desc> list every value. Values that are
/// not finite or negative are drawn as zero-length bars.
std::string RenderAmplificationChart(const AmplificationChart& chart);

}  // namespace dbxb
