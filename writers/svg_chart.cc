#include "writers/svg_chart.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "common/fnv.h"
#include "writers/format.h"

namespace dbxb {
namespace {

// Decodes the UTF-8 sequence at s[i]; returns its length, or 0 when it is not valid UTF-8 (bad lead
// byte, missing continuation, overlong form, surrogate or beyond U+10FFFF).
size_t DecodeUtf8(std::string_view s, size_t i, uint32_t* code_point) {
  const auto lead = static_cast<unsigned char>(s[i]);
  size_t len = 0;
  uint32_t cp = 0;
  if (lead < 0x80) {
    *code_point = lead;
    return 1;
  } else if ((lead & 0xE0) == 0xC0) {
    len = 2;
    cp = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    len = 3;
    cp = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    len = 4;
    cp = lead & 0x07;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    const auto c = static_cast<unsigned char>(s[i + k]);
    if ((c & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (c & 0x3F);
  }
  static const uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  *code_point = cp;
  return len;
}

// Nanoseconds per unit and the unit's name, for the largest unit not above `ns`.
struct TimeUnit {
  double scale;
  const char* name;
};

TimeUnit UnitFor(double ns) {
  if (ns >= 1e9) return {1e9, "s"};
  if (ns >= 1e6) return {1e6, "ms"};
  if (ns >= 1e3) return {1e3, "µs"};
  return {1, "ns"};
}

double Clean(double v) { return std::isfinite(v) && v > 0 ? v : 0; }

std::string Num(double v) { return fmt::format("{:.1f}", v); }

// Width in pixels of `text` at 12 px: an estimate (no font metrics), generous for wide letters.
double TextWidth(const std::string& text) {
  size_t chars = 0;
  for (unsigned char c : text) chars += (c & 0xC0) != 0x80;
  return 7.0 * static_cast<double>(chars);
}

}  // namespace

double NiceStep(double raw) {
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * power >= raw * (1 - 1e-9)) return m * power;
  }
  return 10 * power;
}

std::string SvgDocumentStart(double width, double height, const std::string& title, const std::string& subtitle,
                             const std::string& desc) {
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" role=\"img\" "
      "aria-labelledby=\"chart-title chart-desc\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n",
      Num(width), Num(height));
  svg += fmt::format("<title id=\"chart-title\">{}</title>\n", XmlEscape(title));
  svg += fmt::format("<desc id=\"chart-desc\">{}</desc>\n", XmlEscape(subtitle + ". " + desc));
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  svg += fmt::format("<text x=\"16\" y=\"24\" font-size=\"16\" font-weight=\"bold\" fill=\"#222222\">{}</text>\n",
                     XmlEscape(title));
  svg += fmt::format("<text x=\"16\" y=\"42\" fill=\"#555555\">{}</text>\n", XmlEscape(subtitle));
  return svg;
}

std::string XmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    uint32_t cp = 0;
    const size_t len = DecodeUtf8(text, i, &cp);
    if (len == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD
      ++i;
      continue;
    }
    switch (cp) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        // XML 1.0 Char: tab, LF, CR, U+0020..U+D7FF, U+E000..U+FFFD, U+10000..U+10FFFF.
        if ((cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') || cp == 0xFFFE || cp == 0xFFFF) break;
        out.append(text.substr(i, len));
    }
    i += len;
  }
  return out;
}

std::string EngineColor(std::string_view engine) {
  if (engine == "dbx") return "#4e79a7";
  if (engine == "sqlite") return "#f28e2b";
  if (engine == "lmdb") return "#59a14f";
  if (engine == "rocksdb") return "#e15759";
  if (engine == "null") return "#9d9d9d";
  static const char* kPalette[] = {"#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f"};
  return kPalette[Fnv1a64(engine) % 5];
}

namespace {

// The time axis of a bar chart: linear from 0 with round ticks, or logarithmic (a tick per power of ten)
// when the successful bars span more than kLogScaleSpan, so that a fast engine's bar is not a sliver
// beside a slow one's.
struct TimeAxis {
  bool log = false;
  double span = 0;        // largest bar / smallest bar
  double lo = 0, hi = 1;  // linear: 0 and the axis maximum in ns; log: the decades at the ends
  std::vector<std::pair<double, std::string>> ticks;  // (ns, label)

  // Where `ns` lies along the axis, 0 to 1.
  double Fraction(double ns) const {
    if (!log) return std::min(Clean(ns) / hi, 1.0);
    if (!(Clean(ns) > 0)) return 0;
    return std::clamp((std::log10(ns) - lo) / (hi - lo), 0.0, 1.0);
  }
};

TimeAxis MakeTimeAxis(const std::vector<BarChartEntry>& entries) {
  double max_ns = 0, max_value = 0, min_value = INFINITY, low_ns = INFINITY;
  for (const BarChartEntry& e : entries) {
    if (e.failed) continue;
    max_ns = std::max({max_ns, Clean(e.value), Clean(e.upper)});
    max_value = std::max(max_value, Clean(e.value));
    if (Clean(e.value) > 0) min_value = std::min(min_value, e.value);
    for (double v : {e.value, e.lower})
      if (Clean(v) > 0) low_ns = std::min(low_ns, v);
  }
  TimeAxis axis;
  axis.span = max_value > 0 && std::isfinite(min_value) ? max_value / min_value : 0;
  if (axis.span > kLogScaleSpan) {
    axis.log = true;
    // A decade below the smallest bar, so that it is a bar and not a sliver at the axis's start.
    axis.lo = std::floor(std::log10(low_ns)) - 1;
    axis.hi = std::max(axis.lo + 1, std::ceil(std::log10(max_ns)));
    for (double d = axis.lo; d <= axis.hi + 1e-9; ++d)
      axis.ticks.emplace_back(std::pow(10.0, d), FormatDuration(std::pow(10.0, d), 1));
    return axis;
  }
  const TimeUnit unit = UnitFor(max_ns > 0 ? max_ns : 1);
  const double max_units = max_ns > 0 ? max_ns / unit.scale : 1;
  const double step = NiceStep(max_units / 5);
  const double axis_max = std::ceil(max_units / step * (1 - 1e-9)) * step;
  axis.hi = axis_max * unit.scale;
  for (int k = 0; k * step <= axis_max * (1 + 1e-9); ++k) {
    const double tick = k * step;  // multiplied, not accumulated: no drift in the labels
    axis.ticks.emplace_back(tick * unit.scale, tick == 0 ? "0" : fmt::format("{:g} {}", tick, unit.name));
  }
  return axis;
}

// Where the bar chart's parts go: the bar area [x0, x1], the axis line, the page height.
struct BarLayout {
  static constexpr double kWidth = 760, kTop = 58, kRow = 28, kBar = 18, kRightRoom = 140;
  TimeAxis axis;
  double x0 = 0, x1 = 0, axis_y = 0, height = 0;
  std::string scale_note;  // empty on a linear axis
  double X(double ns) const { return x0 + (x1 - x0) * axis.Fraction(ns); }
};

// Lays the bar chart out: labels on the left, bars and whiskers to their right, the time axis below.
BarLayout MakeBarLayout(const BarChart& chart) {
  BarLayout l;
  double label_width = 60;
  for (const BarChartEntry& e : chart.entries) label_width = std::max(label_width, TextWidth(e.label));
  l.x0 = 16 + label_width + 8;
  l.x1 = BarLayout::kWidth - BarLayout::kRightRoom;
  l.axis = MakeTimeAxis(chart.entries);
  l.axis_y = BarLayout::kTop + BarLayout::kRow * static_cast<double>(chart.entries.size()) + 4;
  if (l.axis.log) {
    l.scale_note = fmt::format("Log scale: the times span {}×, so each gridline is 10× the one before it.",
                               FormatCount(l.axis.span));
  }
  l.height = l.axis_y + 36 + (l.axis.log ? 18 : 0);
  return l;
}

// The bar chart's text description, for screen readers: every entry, then the log-scale note.
std::string BarChartDescription(const BarChart& chart, const BarLayout& l) {
  std::string desc;
  for (const BarChartEntry& e : chart.entries) {
    if (!desc.empty()) desc += "; ";
    desc += e.failed ? e.label + ": failed"
                     : fmt::format("{}: {} [{}, {}]", e.label, FormatDuration(e.value), FormatDuration(e.lower),
                                   FormatDuration(e.upper));
  }
  if (l.axis.log) desc += (desc.empty() ? "" : ". ") + l.scale_note;
  return desc;
}

// Appends the time axis: gridlines with their labels, the log-scale note, and the two axis lines.
void AppendTimeAxis(const BarLayout& l, std::string* svg) {
  constexpr double kTop = BarLayout::kTop;
  for (const auto& [ns, label] : l.axis.ticks) {
    const double x = l.X(ns);
    *svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#e3e3e3\"/>\n", Num(x),
                        Num(kTop - 6), Num(l.axis_y));
    *svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#555555\">{}</text>\n", Num(x),
                        Num(l.axis_y + 16), XmlEscape(label));
  }
  if (l.axis.log) {
    *svg += fmt::format("<text x=\"{}\" y=\"{}\" fill=\"#b05000\" font-style=\"italic\">{}</text>\n", Num(l.x0),
                        Num(l.axis_y + 34), XmlEscape(l.scale_note));
  }
  *svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#333333\"/>\n", Num(l.x0),
                      Num(kTop - 6), Num(l.axis_y));
  *svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#333333\"/>\n", Num(l.x0),
                      Num(l.axis_y), Num(l.x1));
}

// Appends row `i`: the entry's label, then its bar, whisker and value (or "failed").
void AppendBar(const BarChartEntry& e, size_t i, const BarLayout& l, std::string* svg) {
  constexpr double kBar = BarLayout::kBar;
  const double top = BarLayout::kTop + BarLayout::kRow * static_cast<double>(i);
  const double mid = top + kBar / 2;
  *svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"#222222\">{}</text>\n", Num(l.x0 - 8),
                      Num(mid + 4), XmlEscape(e.label));
  if (e.failed) {
    *svg += fmt::format("<text x=\"{}\" y=\"{}\" fill=\"#b00020\">failed</text>\n", Num(l.x0 + 6), Num(mid + 4));
    return;
  }
  const double bar_end = l.X(e.value);
  const double lo = l.X(std::min(e.lower, e.value)), hi = l.X(std::max(e.upper, e.value));
  *svg += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{}</title></rect>\n",
                      Num(l.x0), Num(top), Num(bar_end - l.x0), Num(kBar), EngineColor(e.label),
                      XmlEscape(fmt::format("{}: {} [{}, {}]", e.label, FormatDuration(e.value),
                                            FormatDuration(e.lower), FormatDuration(e.upper))));
  *svg += fmt::format("<line x1=\"{0}\" y1=\"{2}\" x2=\"{1}\" y2=\"{2}\" stroke=\"#222222\" stroke-width=\"1.5\"/>\n",
                      Num(lo), Num(hi), Num(mid));
  for (double x : {lo, hi}) {
    *svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#222222\" stroke-width=\"1.5\"/>\n",
                        Num(x), Num(mid - 5), Num(mid + 5));
  }
  *svg += fmt::format("<text x=\"{}\" y=\"{}\" fill=\"#222222\">{}</text>\n", Num(std::max(hi, bar_end) + 8),
                      Num(mid + 4), XmlEscape(FormatDuration(e.value)));
}

// Where a percentile goes on the x axis, in "nines": 0 for p0, 1 for p90, 2 for p99, ...
double Nines(double p) { return std::log10(100.0 / (100.0 - std::min(p, 99.9999))); }

// Whether a curve's point can be drawn: a finite percentile in [0, 100] and a finite positive time.
bool DrawablePoint(double p, double ns) {
  return std::isfinite(p) && std::isfinite(ns) && ns > 0 && p >= 0 && p <= 100;
}

// The latency chart's axes: percentiles in nines across, time decades (log scale) up.
struct LatencyLayout {
  static constexpr double kWidth = 800, kHeight = 420, kLeft = 84, kRight = 600, kTop = 62, kBottom = 370;
  double max_nines = 2;  // at least up to p99
  bool has_max = false;
  double x_end = 0, lo_decade = 0, hi_decade = 0;
  double X(double p) const { return kLeft + (kRight - kLeft) * (p >= 100 ? x_end : Nines(p)) / x_end; }
  double Y(double ns) const {
    return kBottom - (kBottom - kTop) * (std::log10(ns) - lo_decade) / (hi_decade - lo_decade);
  }
};

// Fits the axes to every drawable point of the curves that did not fail.
LatencyLayout MakeLatencyLayout(const LatencyChart& chart) {
  LatencyLayout l;
  double lo_ns = INFINITY, hi_ns = 0;
  for (const LatencyCurve& c : chart.curves) {
    if (c.failed) continue;
    for (const auto& [p, ns] : c.points) {
      if (!DrawablePoint(p, ns)) continue;
      if (p >= 100)
        l.has_max = true;
      else
        l.max_nines = std::max(l.max_nines, std::ceil(Nines(p) - 1e-9));
      lo_ns = std::min(lo_ns, ns);
      hi_ns = std::max(hi_ns, ns);
    }
  }
  if (hi_ns == 0) lo_ns = hi_ns = 1000;  // nothing to draw: an empty 1 µs axis
  l.x_end = l.max_nines + (l.has_max ? 0.5 : 0);
  l.lo_decade = std::floor(std::log10(lo_ns));
  l.hi_decade = std::ceil(std::log10(hi_ns));
  if (l.hi_decade <= l.lo_decade) l.hi_decade = l.lo_decade + 1;
  return l;
}

// Appends the percentile axis: ticks 0 %, 90 %, 99 %, 99.9 %, ...; then "max" and the axis title.
void AppendPercentileAxis(const LatencyLayout& l, std::string* svg) {
  constexpr double kLeft = LatencyLayout::kLeft, kRight = LatencyLayout::kRight;
  constexpr double kTop = LatencyLayout::kTop, kBottom = LatencyLayout::kBottom;
  for (int k = 0; k <= static_cast<int>(l.max_nines); ++k) {
    const double x = kLeft + (kRight - kLeft) * k / l.x_end;
    std::string label = k == 0 ? "0%" : fmt::format("{:.{}f}%", 100 - 100 * std::pow(10.0, -k), std::max(0, k - 2));
    *svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#e3e3e3\"/>\n", Num(x), Num(kTop),
                        Num(kBottom));
    *svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#555555\">{}</text>\n", Num(x),
                        Num(kBottom + 16), label);
  }
  if (l.has_max) {
    *svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#555555\">max</text>\n", Num(kRight),
                        Num(kBottom + 16));
  }
  *svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#555555\">percentile</text>\n",
                      Num((kLeft + kRight) / 2), Num(kBottom + 34));
}

// Appends the time axis (a gridline and label per decade), then the two axis lines.
void AppendDecadeAxis(const LatencyLayout& l, std::string* svg) {
  constexpr double kLeft = LatencyLayout::kLeft, kRight = LatencyLayout::kRight;
  constexpr double kTop = LatencyLayout::kTop, kBottom = LatencyLayout::kBottom;
  for (double d = l.lo_decade; d <= l.hi_decade + 1e-9; ++d) {
    const double y = l.Y(std::pow(10.0, d));
    *svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#e3e3e3\"/>\n", Num(kLeft), Num(y),
                        Num(kRight));
    *svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"#555555\">{}</text>\n", Num(kLeft - 6),
                        Num(y + 4), XmlEscape(FormatDuration(std::pow(10.0, d), 1)));
  }
  *svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#333333\"/>\n", Num(kLeft), Num(kTop),
                      Num(kBottom));
  *svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#333333\"/>\n", Num(kLeft),
                      Num(kBottom), Num(kRight));
}

// Appends curve `i`: its polyline (unless it failed) and its legend entry.
void AppendLatencyCurve(const LatencyCurve& c, size_t i, const LatencyLayout& l, std::string* svg) {
  constexpr double kRight = LatencyLayout::kRight;
  const std::string color = EngineColor(c.label);
  const double ly = LatencyLayout::kTop + 8 + 20 * static_cast<double>(i);
  if (!c.failed) {
    std::string points;
    for (const auto& [p, ns] : c.points) {
      if (!DrawablePoint(p, ns)) continue;
      points += fmt::format("{}{},{}", points.empty() ? "" : " ", Num(l.X(p)), Num(l.Y(ns)));
    }
    *svg += fmt::format(
        "<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"><title>{}</title></polyline>\n", points,
        color, XmlEscape(c.label + ": " + c.description));
    *svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"{3}\" stroke-width=\"3\"/>\n",
                        Num(kRight + 24), Num(ly), Num(kRight + 44), color);
  }
  *svg += fmt::format("<text x=\"{}\" y=\"{}\" fill=\"{}\">{}</text>\n", Num(kRight + 50), Num(ly + 4),
                      c.failed ? "#b00020" : "#222222", XmlEscape(c.failed ? c.label + " (failed)" : c.label));
}

}  // namespace

std::string RenderTimeBarChart(const BarChart& chart) {
  const BarLayout layout = MakeBarLayout(chart);
  std::string svg = SvgDocumentStart(BarLayout::kWidth, layout.height, chart.title, chart.subtitle,
                                     BarChartDescription(chart, layout));
  AppendTimeAxis(layout, &svg);
  for (size_t i = 0; i < chart.entries.size(); ++i) AppendBar(chart.entries[i], i, layout, &svg);
  svg += "</svg>\n";
  return svg;
}

std::string RenderLatencyPercentileChart(const LatencyChart& chart) {
  const LatencyLayout layout = MakeLatencyLayout(chart);
  std::string desc;
  for (const LatencyCurve& c : chart.curves) {
    if (!desc.empty()) desc += "; ";
    desc += c.label + ": " + (c.failed ? std::string("failed") : c.description);
  }
  std::string svg = SvgDocumentStart(LatencyLayout::kWidth, LatencyLayout::kHeight, chart.title, chart.subtitle, desc);
  AppendPercentileAxis(layout, &svg);
  AppendDecadeAxis(layout, &svg);
  for (size_t i = 0; i < chart.curves.size(); ++i) AppendLatencyCurve(chart.curves[i], i, layout, &svg);
  svg += "</svg>\n";
  return svg;
}

}  // namespace dbxb
