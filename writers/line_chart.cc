#include "writers/line_chart.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "writers/format.h"
#include "writers/svg_chart.h"

namespace dbxb {
namespace {

constexpr double kWidth = 820, kLeft = 84, kRight = 610, kTop = 64, kBottom = 370;

std::string Px(double v) { return fmt::format("{:.1f}", v); }

bool Usable(double v, bool log) { return std::isfinite(v) && (!log || v > 0); }

// 1,234 -> "1.23k": three significant digits with a decimal prefix.
std::string Short(double v) {
  const double a = std::fabs(v);
  const char* prefix = "";
  double scaled = v;
  if (a >= 1e9) {
    scaled = v / 1e9, prefix = "G";
  } else if (a >= 1e6) {
    scaled = v / 1e6, prefix = "M";
  } else if (a >= 1e3) {
    scaled = v / 1e3, prefix = "k";
  }
  return fmt::format("{:.3g}{}", scaled, prefix);
}

std::string Label(double v, AxisUnit unit) {
  switch (unit) {
    case AxisUnit::kRate:
      return Short(v) + "/s";
    case AxisUnit::kDuration:
      return v == 0 ? "0" : FormatDuration(v, 2);
    case AxisUnit::kSeconds:
      return fmt::format("{:g} s", v);
    case AxisUnit::kNumber:
      break;
  }
  return Short(v);
}

// One numeric axis: where a value goes (0 to 1) and its ticks.
struct Scale {
  bool log = false;
  double span = 0;
  double lo = 0, hi = 1;  // linear: the range; log: the decades at the ends
  std::vector<double> ticks;

  double Fraction(double v) const {
    if (!log) return (v - lo) / (hi - lo);
    return (std::log10(v) - lo) / (hi - lo);
  }
};

Scale MakeScale(std::vector<double> values, const LineChartAxis& axis) {
  double min = INFINITY, max = -INFINITY, min_positive = INFINITY;
  for (double v : values) {
    if (!std::isfinite(v)) continue;
    min = std::min(min, v);
    max = std::max(max, v);
    if (v > 0) min_positive = std::min(min_positive, v);
  }
  Scale s;
  s.span = std::isfinite(min_positive) && max > 0 ? max / min_positive : 0;
  s.log = axis.log.value_or(s.span > kLogScaleSpan) && std::isfinite(min_positive);
  if (s.log) {
    s.lo = std::floor(std::log10(min_positive) + 1e-9);
    s.hi = std::max(s.lo + 1, std::ceil(std::log10(max) - 1e-9));
    for (double d = s.lo; d <= s.hi + 1e-9; ++d) s.ticks.push_back(std::pow(10.0, d));
    return s;
  }
  if (!std::isfinite(min)) min = 0, max = 1;
  s.lo = std::min(0.0, min);
  const double top = max > s.lo ? max : s.lo + 1;
  const double step = NiceStep((top - s.lo) / 5);
  s.hi = s.lo + std::ceil((top - s.lo) / step - 1e-9) * step;
  for (int k = 0; s.lo + k * step <= s.hi * (1 + 1e-9) + 1e-12; ++k) s.ticks.push_back(s.lo + k * step);
  return s;
}

std::string ColorOf(const std::string& label) { return EngineColor(label.substr(0, label.find(' '))); }

std::string ScaleNote(const char* which, const Scale& s) {
  return fmt::format("Log scale on {}: the values span {}×, so each gridline is 10× the one before it.", which,
                     FormatCount(s.span));
}

// The axes, grid and tick labels. `x_of` / `y_of` map values to pixels.
template <typename X, typename Y>
std::string Axes(const LineChart& chart, const Scale& xs, const Scale& ys, X x_of, Y y_of) {
  std::string svg;
  if (chart.x.categories.empty()) {
    for (double t : xs.ticks) {
      svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#e3e3e3\"/>\n", Px(x_of(t)),
                         Px(kTop), Px(kBottom));
      svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#555555\">{}</text>\n", Px(x_of(t)),
                         Px(kBottom + 16), XmlEscape(Label(t, chart.x.unit)));
    }
  } else {
    for (size_t i = 0; i < chart.x.categories.size(); ++i) {
      const double x = x_of(static_cast<double>(i));
      svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#e3e3e3\"/>\n", Px(x), Px(kTop),
                         Px(kBottom));
      svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#555555\">{}</text>\n", Px(x),
                         Px(kBottom + 16), XmlEscape(chart.x.categories[i]));
    }
  }
  for (double t : ys.ticks) {
    svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#e3e3e3\"/>\n", Px(kLeft),
                       Px(y_of(t)), Px(kRight));
    svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"#555555\">{}</text>\n", Px(kLeft - 6),
                       Px(y_of(t) + 4), XmlEscape(Label(t, chart.y.unit)));
  }
  svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#333333\"/>\n", Px(kLeft), Px(kTop),
                     Px(kBottom));
  svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#333333\"/>\n", Px(kLeft), Px(kBottom),
                     Px(kRight));
  svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#333333\">{}</text>\n",
                     Px((kLeft + kRight) / 2), Px(kBottom + 36), XmlEscape(chart.x.title));
  svg += fmt::format(
      "<text x=\"{0}\" y=\"{1}\" text-anchor=\"middle\" fill=\"#333333\" transform=\"rotate(-90 {0} "
      "{1})\">{2}</text>\n",
      Px(20), Px((kTop + kBottom) / 2), XmlEscape(chart.y.title));
  return svg;
}

// One line: its polyline, its markers with their tooltips, and its legend entry (row `index`).
template <typename X, typename Y>
std::string Line(const ChartLine& line, size_t index, bool x_log, bool y_log, X x_of, Y y_of) {
  const std::string color = ColorOf(line.label);
  const std::string dash = line.dashed ? " stroke-dasharray=\"6 4\"" : "";
  std::string points, markers;
  for (const LinePoint& p : line.points) {
    if (!Usable(p.x, x_log) || !Usable(p.y, y_log)) continue;
    const std::string x = Px(x_of(p.x)), y = Px(y_of(p.y));
    points += fmt::format("{}{},{}", points.empty() ? "" : " ", x, y);
    const std::string tip = XmlEscape(line.label + (p.note.empty() ? "" : ": " + p.note));
    markers += fmt::format(
        "<circle cx=\"{}\" cy=\"{}\" r=\"3.5\" fill=\"{}\" stroke=\"{}\" "
        "stroke-width=\"1.5\"><title>{}</title></circle>\n",
        x, y, p.hollow ? "#ffffff" : color, color, tip);
    if (p.highlight)
      markers += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"8\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"/>\n",
                             x, y, color);
  }
  std::string svg;
  if (!points.empty())
    svg += fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{}/>\n", points, color,
                       dash);
  svg += markers;
  const double ly = kTop + 8 + 20 * static_cast<double>(index);
  svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"{3}\" stroke-width=\"3\"{4}/>\n",
                     Px(kRight + 20), Px(ly), Px(kRight + 42), color, dash);
  svg += fmt::format("<text x=\"{}\" y=\"{}\" fill=\"#222222\">{}</text>\n", Px(kRight + 48), Px(ly + 4),
                     XmlEscape(line.label));
  return svg;
}

std::string Describe(const LineChart& chart) {
  std::string desc;
  for (const ChartLine& line : chart.lines) {
    std::vector<std::string> points;
    for (const LinePoint& p : line.points) {
      if (!std::isfinite(p.x) || !std::isfinite(p.y)) continue;
      const std::string x =
          chart.x.categories.empty() || p.x < 0 || p.x >= static_cast<double>(chart.x.categories.size())
              ? Label(p.x, chart.x.unit)
              : chart.x.categories[static_cast<size_t>(p.x)];
      points.push_back(fmt::format("{} {}", x, Label(p.y, chart.y.unit)));
    }
    desc += fmt::format("{}{}: {}", desc.empty() ? "" : "; ", line.label, fmt::join(points, ", "));
  }
  return desc;
}

}  // namespace

std::string RenderLineChart(const LineChart& chart) {
  std::vector<double> xs, ys;
  for (const ChartLine& line : chart.lines) {
    for (const LinePoint& p : line.points) {
      xs.push_back(p.x);
      ys.push_back(p.y);
    }
  }
  if (chart.threshold) ys.push_back(*chart.threshold);
  const bool categorical = !chart.x.categories.empty();
  const Scale x_scale = categorical ? Scale{} : MakeScale(xs, chart.x);
  const Scale y_scale = MakeScale(ys, chart.y);
  const double n = static_cast<double>(chart.x.categories.size());
  auto x_of = [&](double x) {
    if (categorical) return kLeft + (kRight - kLeft) * (x + 0.5) / n;
    return kLeft + (kRight - kLeft) * std::clamp(x_scale.Fraction(x), 0.0, 1.0);
  };
  auto y_of = [&](double y) { return kBottom - (kBottom - kTop) * std::clamp(y_scale.Fraction(y), 0.0, 1.0); };

  std::vector<std::string> notes;
  if (x_scale.log) notes.push_back(ScaleNote("x", x_scale));
  if (y_scale.log) notes.push_back(ScaleNote("y", y_scale));
  for (const std::string& note : chart.notes) notes.push_back(note);
  const double height = kBottom + 52 + 16 * static_cast<double>(notes.size());

  std::string svg = SvgDocumentStart(kWidth, height, chart.title, chart.subtitle, Describe(chart));
  svg += Axes(chart, x_scale, y_scale, x_of, y_of);
  if (chart.threshold && Usable(*chart.threshold, y_scale.log)) {
    const std::string y = Px(y_of(*chart.threshold));
    svg += fmt::format(
        "<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#b00020\" stroke-width=\"1.5\" "
        "stroke-dasharray=\"8 4\"/>\n",
        Px(kLeft), y, Px(kRight));
    svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"#b00020\">{}</text>\n", Px(kRight - 4),
                       Px(y_of(*chart.threshold) - 5), XmlEscape(chart.threshold_label));
  }
  for (size_t i = 0; i < chart.lines.size(); ++i) svg += Line(chart.lines[i], i, x_scale.log, y_scale.log, x_of, y_of);
  for (size_t i = 0; i < notes.size(); ++i) {
    svg += fmt::format("<text x=\"16\" y=\"{}\" fill=\"#b05000\" font-style=\"italic\">{}</text>\n",
                       Px(kBottom + 58 + 16 * static_cast<double>(i)), XmlEscape(notes[i]));
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace dbxb
