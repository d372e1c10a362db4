#include "writers/amplification_chart.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "writers/svg_chart.h"

namespace dbxb {
namespace {

constexpr double kWidth = 760;
constexpr double kLabelWidth = 200;
constexpr double kValueWidth = 70;
constexpr double kTop = 62;
constexpr double kBarHeight = 12;
constexpr double kRowHeight = 2 * kBarHeight + 12;

double Clean(const std::optional<double>& v) { return v && std::isfinite(*v) && *v > 0 ? *v : 0; }

std::string Value(const std::optional<double>& v) {
  return v && std::isfinite(*v) ? fmt::format("{:.2f}×", *v) : std::string("n/a");
}

// 1, 2 or 5 times a power of ten, at least `raw`.
double NiceStep(double raw) {
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * power >= raw * (1 - 1e-9)) return m * power;
  return 10 * power;
}

}  // namespace

std::string RenderAmplificationChart(const AmplificationChart& chart) {
  double max = 1;
  for (const AmplificationEntry& e : chart.entries)
    max = std::max({max, Clean(e.write_amplification), Clean(e.space_amplification)});
  const double step = NiceStep(max / 5);
  const double axis_max = std::ceil(max / step - 1e-9) * step;
  const double plot_left = kLabelWidth;
  const double plot_width = kWidth - kLabelWidth - kValueWidth - 10;
  auto x = [&](double v) { return plot_left + plot_width * std::min(v, axis_max) / axis_max; };
  const double plot_bottom = kTop + kRowHeight * static_cast<double>(chart.entries.size());
  const double height = plot_bottom + 50;

  std::string desc;
  for (const AmplificationEntry& e : chart.entries)
    desc +=
        fmt::format("{}: write {}, space {}. ", e.label, Value(e.write_amplification), Value(e.space_amplification));
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" height=\"{1:.0f}\" viewBox=\"0 0 {0:.0f} {1:.0f}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n",
      kWidth, height);
  svg += fmt::format("<title>{}</title>\n<desc>{}</desc>\n", XmlEscape(chart.title), XmlEscape(desc));
  svg += fmt::format("<rect width=\"{:.0f}\" height=\"{:.0f}\" fill=\"#ffffff\"/>\n", kWidth, height);
  svg +=
      fmt::format("<text x=\"10\" y=\"22\" font-size=\"16\" font-weight=\"bold\">{}</text>\n", XmlEscape(chart.title));
  svg += fmt::format("<text x=\"10\" y=\"42\" fill=\"#555555\">{}</text>\n", XmlEscape(chart.subtitle));
  for (double t = 0; t <= axis_max + step / 2; t += step) {
    svg += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#dddddd\"/>\n", x(t),
                       kTop - 4, plot_bottom);
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" fill=\"#555555\">{:g}×</text>\n", x(t),
                       plot_bottom + 16, t);
  }
  svg += fmt::format(
      "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#333333\" stroke-dasharray=\"4 "
      "3\"/>\n",
      x(1), kTop - 4, plot_bottom);
  double y = kTop;
  for (const AmplificationEntry& e : chart.entries) {
    const std::string color = EngineColor(e.engine);
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n", plot_left - 8,
                       y + kBarHeight + 4, XmlEscape(e.label));
    const double w = Clean(e.write_amplification), s = Clean(e.space_amplification);
    svg += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.0f}\" fill=\"{}\"/>\n", plot_left,
                       y, x(w) - plot_left, kBarHeight, color);
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">write {}</text>\n", x(w) + 4, y + kBarHeight - 2,
                       XmlEscape(Value(e.write_amplification)));
    svg += fmt::format(
        "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.0f}\" fill=\"{}\" fill-opacity=\"0.45\"/>\n",
        plot_left, y + kBarHeight, x(s) - plot_left, kBarHeight, color);
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">space {}</text>\n", x(s) + 4, y + 2 * kBarHeight - 2,
                       XmlEscape(Value(e.space_amplification)));
    y += kRowHeight;
  }
  svg += fmt::format(
      "<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"#555555\">solid: write amplification, light: space amplification, "
      "dashed: 1×</text>\n",
      plot_left, plot_bottom + 38);
  svg += "</svg>\n";
  return svg;
}

}  // namespace dbxb
