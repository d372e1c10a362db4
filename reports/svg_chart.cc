#include "reports/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "reports/format.h"

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

// 1, 2 or 5 times a power of ten, at least `raw`.
double NiceStep(double raw) {
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * power >= raw * (1 - 1e-9)) return m * power;
  }
  return 10 * power;
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
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
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
  uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : engine) h = (h ^ c) * 0x100000001b3ULL;
  return kPalette[h % 5];
}

std::string RenderTimeBarChart(const BarChart& chart) {
  constexpr double kWidth = 760, kTop = 58, kRow = 28, kBar = 18, kRightRoom = 140;
  double label_width = 60;
  double max_ns = 0;
  for (const BarChartEntry& e : chart.entries) {
    label_width = std::max(label_width, TextWidth(e.label));
    if (!e.failed) max_ns = std::max({max_ns, Clean(e.value), Clean(e.upper)});
  }
  const double x0 = 16 + label_width + 8;
  const double x1 = kWidth - kRightRoom;
  const TimeUnit unit = UnitFor(max_ns > 0 ? max_ns : 1);
  const double max_units = max_ns > 0 ? max_ns / unit.scale : 1;
  const double step = NiceStep(max_units / 5);
  const double axis_max = std::ceil(max_units / step * (1 - 1e-9)) * step;
  auto x_of = [&](double ns) { return x0 + (x1 - x0) * std::min(Clean(ns) / unit.scale / axis_max, 1.0); };
  const double axis_y = kTop + kRow * static_cast<double>(chart.entries.size()) + 4;
  const double height = axis_y + 36;

  std::string desc;
  for (const BarChartEntry& e : chart.entries) {
    if (!desc.empty()) desc += "; ";
    desc += e.failed ? e.label + ": failed"
                     : fmt::format("{}: {} [{}, {}]", e.label, FormatDuration(e.value), FormatDuration(e.lower),
                                   FormatDuration(e.upper));
  }

  std::string svg;
  svg += fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" role=\"img\" "
      "aria-labelledby=\"chart-title chart-desc\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n",
      Num(kWidth), Num(height));
  svg += fmt::format("<title id=\"chart-title\">{}</title>\n", XmlEscape(chart.title));
  svg += fmt::format("<desc id=\"chart-desc\">{}</desc>\n", XmlEscape(chart.subtitle + ". " + desc));
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  svg += fmt::format("<text x=\"16\" y=\"24\" font-size=\"16\" font-weight=\"bold\" fill=\"#222222\">{}</text>\n",
                     XmlEscape(chart.title));
  svg += fmt::format("<text x=\"16\" y=\"42\" fill=\"#555555\">{}</text>\n", XmlEscape(chart.subtitle));

  // Grid and ticks.
  for (int k = 0; k * step <= axis_max * (1 + 1e-9); ++k) {
    const double tick = k * step;  // multiplied, not accumulated: no drift in the labels
    const double x = x0 + (x1 - x0) * tick / axis_max;
    svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#e3e3e3\"/>\n", Num(x), Num(kTop - 6),
                       Num(axis_y));
    std::string label = tick == 0 ? "0" : fmt::format("{:g} {}", tick, unit.name);
    svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#555555\">{}</text>\n", Num(x),
                       Num(axis_y + 16), XmlEscape(label));
  }
  svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#333333\"/>\n", Num(x0), Num(kTop - 6),
                     Num(axis_y));
  svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#333333\"/>\n", Num(x0), Num(axis_y),
                     Num(x1));

  for (size_t i = 0; i < chart.entries.size(); ++i) {
    const BarChartEntry& e = chart.entries[i];
    const double top = kTop + kRow * static_cast<double>(i);
    const double mid = top + kBar / 2;
    svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"#222222\">{}</text>\n", Num(x0 - 8),
                       Num(mid + 4), XmlEscape(e.label));
    if (e.failed) {
      svg += fmt::format("<text x=\"{}\" y=\"{}\" fill=\"#b00020\">failed</text>\n", Num(x0 + 6), Num(mid + 4));
      continue;
    }
    const double bar_end = x_of(e.value);
    const double lo = x_of(std::min(e.lower, e.value)), hi = x_of(std::max(e.upper, e.value));
    svg += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{}</title></rect>\n",
                       Num(x0), Num(top), Num(bar_end - x0), Num(kBar), EngineColor(e.label),
                       XmlEscape(fmt::format("{}: {} [{}, {}]", e.label, FormatDuration(e.value),
                                             FormatDuration(e.lower), FormatDuration(e.upper))));
    svg += fmt::format("<line x1=\"{0}\" y1=\"{2}\" x2=\"{1}\" y2=\"{2}\" stroke=\"#222222\" stroke-width=\"1.5\"/>\n",
                       Num(lo), Num(hi), Num(mid));
    for (double x : {lo, hi}) {
      svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#222222\" stroke-width=\"1.5\"/>\n",
                         Num(x), Num(mid - 5), Num(mid + 5));
    }
    svg += fmt::format("<text x=\"{}\" y=\"{}\" fill=\"#222222\">{}</text>\n", Num(std::max(hi, bar_end) + 8),
                       Num(mid + 4), XmlEscape(FormatDuration(e.value)));
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace dbxb
