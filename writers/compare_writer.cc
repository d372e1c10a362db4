#include "writers/compare_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "stats/t_tests.h"
#include "writers/format.h"
#include "writers/markdown_methodology.h"
#include "writers/reporter.h"

namespace dbxb {
namespace {

bool IsMeanRow(const MetricComparison& row) { return row.metric->name == "time_mean"; }

// The typical-time row of the same benchmark as `mean`, or nullptr.
const MetricComparison* TypicalRowOf(const ComparisonReport& report, const MetricComparison& mean) {
  for (const MetricComparison& r : report.rows)
    if (r.metric->name == "time" && r.key == mean.key) return &r;
  return nullptr;
}

// The name of a row, with its parameters when another row has the same name but other parameters, or
// always for a row that was not compared (differing parameters are a common reason).
std::string DisplayName(const ComparisonReport& report, const MetricComparison& row) {
  std::string name = row.key.Name();
  if (!row.metric->label.empty()) name += fmt::format(" ({})", row.metric->label);
  if (row.outcome != Outcome::kCompared) return name + " [" + JoinKeyValues(row.key.parameters) + "]";
  for (const MetricComparison& other : report.rows) {
    if (&other != &row && other.key.Name() == row.key.Name() && other.key.parameters != row.key.parameters)
      return name + " [" + JoinKeyValues(row.key.parameters) + "]";
  }
  return name;
}

std::string ShortCommit(const RunLabel& l) {
  std::string c = l.git_commit.substr(0, 7);
  return l.git_dirty ? c + ", dirty" : c;
}

std::string Describe(const RunLabel& l) {
  return fmt::format("{} ({}, {}, commit {})", l.source.empty() ? "(unnamed)" : l.source, l.host_name, l.date_utc,
                     ShortCommit(l));
}

// "over 5.00%", or with instruction counts "over 5.00% (instructions: 1.00%)".
std::string Thresholds(const ComparisonReport& report) {
  const std::string x = FormatPercent(report.options.max_regression);
  const std::string xi = FormatPercent(report.options.max_instruction_regression);
  const bool instructions = report.Family(MetricFamily::kInstructions).rows > 0;
  if (!instructions) return "over " + x;
  if (report.Family(MetricFamily::kTiming).rows + report.Family(MetricFamily::kCounter).rows == 0) return "over " + xi;
  return fmt::format("over {} (instructions: {})", x, xi);
}

std::string GateLine(const ComparisonReport& report) {
  const size_t regressed = report.Count(Verdict::kRegressed);
  const size_t inconclusive = report.Count(Verdict::kInconclusive);
  std::string line = regressed == 0
                         ? fmt::format("no regression {}", Thresholds(report))
                         : fmt::format("{} regression{} {}", regressed, regressed == 1 ? "" : "s", Thresholds(report));
  if (inconclusive == 0) return line;
  return line + fmt::format(", {} inconclusive{}", inconclusive,
                            report.options.fail_on_inconclusive ? " (failing: --fail-on-inconclusive)" : "");
}

// The verdict of a row in words; `markdown` adds the ✅ / ⚠️ / ❌ mark.
std::string VerdictText(const ComparisonReport& report, const MetricComparison& row, bool markdown) {
  if (row.outcome != Outcome::kCompared) return std::string(markdown ? "⚠️ " : "") + OutcomeName(row.outcome);
  std::string text = VerdictName(row.verdict);
  if (!markdown && !row.note.empty()) text += " (" + row.note + ")";
  if (!markdown) return text;
  switch (row.verdict) {
    case Verdict::kRegressed:
      return "❌ " + text;
    case Verdict::kInconclusive:
      return (report.options.fail_on_inconclusive ? "❌ " : "⚠️ ") + text;
    case Verdict::kNoRegression:
    case Verdict::kImproved:
      break;
  }
  return "✅ " + text;
}

// Display width of UTF-8 text: code points, except that the emoji variation selector takes no column.
size_t DisplayWidth(const std::string& s) {
  size_t width = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if ((c & 0xC0) == 0x80) continue;
    if (c == 0xEF && i + 2 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0xB8 &&
        static_cast<unsigned char>(s[i + 2]) == 0x8F)
      continue;  // U+FE0F
    ++width;
  }
  return width;
}

void WriteAligned(const std::vector<std::vector<std::string>>& table, std::ostream& out) {
  std::vector<size_t> widths;
  for (const auto& line : table) {
    widths.resize(std::max(widths.size(), line.size()), 0);
    for (size_t c = 0; c < line.size(); ++c) widths[c] = std::max(widths[c], DisplayWidth(line[c]));
  }
  for (const auto& line : table) {
    std::string text;
    for (size_t c = 0; c < line.size(); ++c) {
      text += line[c];
      if (c + 1 < line.size()) text += std::string(widths[c] - DisplayWidth(line[c]) + 2, ' ');
    }
    out << text << "\n";
  }
}

std::string LevelText(double level) { return fmt::format("{:.6g} %", level * 100); }

// "timing 12 rows at 99.583 % (gate 5.00%), counters 12 rows at 99.583 % (gate 5.00%)".
std::string FamiliesText(const ComparisonReport& report) {
  std::string out;
  for (MetricFamily f : {MetricFamily::kTiming, MetricFamily::kCounter, MetricFamily::kInstructions}) {
    const FamilySummary s = report.Family(f);
    if (s.rows == 0) continue;
    out += fmt::format("{}{} {} row{} at {} (gate {})", out.empty() ? "" : ", ", FamilyName(f), s.rows,
                       s.rows == 1 ? "" : "s", LevelText(s.level), FormatPercent(s.threshold));
  }
  return out;
}

// How much a regression of `d` (a change, negative for a drop of a higher-is-better metric) weighs, on
// the log scale, so that rows of both directions compare.
double Magnitude(double d) { return std::fabs(std::log1p(d)); }

// "the smallest regression it could detect: +7.20 % for the median timing row, +25.00 % for
// dbx-micro/scan/sqlite (mean)"; empty without compared timing rows.
std::string DetectableText(const ComparisonReport& report) {
  std::vector<double> magnitudes;
  const MetricComparison* worst = nullptr;
  for (const MetricComparison& r : report.rows) {
    if (r.outcome != Outcome::kCompared || r.metric->family != MetricFamily::kTiming || !(r.level > 0)) continue;
    magnitudes.push_back(Magnitude(r.detectable));
    if (worst == nullptr || Magnitude(r.detectable) > Magnitude(worst->detectable)) worst = &r;
  }
  if (worst == nullptr) return "";
  std::sort(magnitudes.begin(), magnitudes.end());
  const double median = std::expm1(magnitudes[(magnitudes.size() - 1) / 2]);
  return fmt::format("Smallest regression this comparison could detect: {} for the median timing row, {} for {}.",
                     FormatChange(median), FormatChange(worst->detectable), DisplayName(report, *worst));
}

std::string MethodText(const ComparisonReport& report) {
  const CompareOptions& o = report.options;
  switch (report.method) {
    case CompareMethod::kPairedRounds:
      return fmt::format(
          "{} paired rounds (ABBA order). Each round's estimate: a micro-benchmark's typical time (the median of its "
          "samples' time per iteration), its mean time and CPU time per operation; a phase's total throughput, the "
          "p99 of its merged histogram and its CPU per operation; counters and instruction counts as recorded. "
          "Change: the {:g} % trimmed geometric mean of the per-round ratios current / baseline − 1, with Yuen's "
          "trimmed-mean t interval of the log ratios",
          report.baseline_runs, kTrimProportion * 100);
    case CompareMethod::kRuns:
      return fmt::format(
          "{} baseline and {} current runs, each contributing one estimate per row (as in paired rounds). Change: "
          "the ratio of the geometric means − 1, with the Welch t interval of the log estimates",
          report.baseline_runs, report.current_runs);
    case CompareMethod::kSamples:
      break;
  }
  const std::string floor =
      std::isinf(o.noise_floor) ? "unknown by default, which leaves them inconclusive" : FormatPercent(o.noise_floor);
  return fmt::format(
      "One run per side. Intervals: a bootstrap of the median and of the mean time per iteration ({} resamples, "
      "seed {}); a moving-block bootstrap of a phase's seconds (at least 10 whole seconds a side, else "
      "inconclusive); none for CPU, counters and instructions (one value a side). Timing rows and "
      "duration-bound counters are widened by the between-run noise one run per side cannot see: the row's "
      "spread over A/A runs (--aa-runs), else the noise floor ({})",
      FormatInteger(o.resamples), o.seed, floor);
}

std::string VerdictRuleText(const ComparisonReport& report) {
  return fmt::format(
      "Verdicts: regressed when the whole interval is worse than the gate, no regression when its worse end is "
      "within it, improved when it is all better than minus the gate, inconclusive otherwise. Intervals are "
      "simultaneous within each family (Bonferroni, family-wise error {:g}{}): {}",
      report.options.significance,
      report.options.looks > 1 ? fmt::format(" over {} planned looks", report.options.looks) : "",
      FamiliesText(report));
}

}  // namespace

std::string FormatChange(double fraction) {
  if (std::isnan(fraction)) return "NaN";
  if (std::isinf(fraction)) return fraction > 0 ? "+inf%" : "-inf%";
  std::string s = FormatPercent(fraction);
  if (s[0] == '-') {
    // A tiny negative change that rounds to zero reads "+0.00%", not "-0.00%".
    if (s.find_first_not_of("-0.%") != std::string::npos) return s;
    s.erase(0, 1);
  }
  return "+" + s;
}

std::string FormatChangeInterval(const Interval& change) {
  return fmt::format("{} [{}, {}]", FormatChange(change.point), FormatChange(change.lower), FormatChange(change.upper));
}

std::string FormatMetricValue(const Metric& metric, double value) {
  if (std::isnan(value)) return "—";
  switch (metric.format) {
    case ValueFormat::kDuration:
      return FormatDuration(value);
    case ValueFormat::kRate:
      return FormatRate(value, "op/s");
    case ValueFormat::kFixed2:
      return FormatFixed(value, 2);
    case ValueFormat::kBytes:
      return FormatBytes(value);
    case ValueFormat::kCount:
      return FormatCount(value);
  }
  return FormatCount(value);
}

bool ShownInTables(const ComparisonReport& report, const MetricComparison& row) {
  if (row.outcome != Outcome::kCompared) return true;
  if (row.metric->family == MetricFamily::kCounter) return !(row.change.lower == 0 && row.change.upper == 0);
  if (!IsMeanRow(row)) return true;
  const MetricComparison* typical = TypicalRowOf(report, row);
  if (typical == nullptr || typical->outcome != Outcome::kCompared) return true;
  return typical->verdict != row.verdict ||
         std::fabs(typical->change.point - row.change.point) > report.options.max_regression / 2;
}

Status WriteCompareConsole(const ComparisonReport& report, std::ostream& out) {
  out << "Baseline: " << Describe(report.baseline) << "\n";
  out << "Current:  " << Describe(report.current) << "\n\n";
  std::vector<std::vector<std::string>> table = {{"Benchmark", "Baseline", "Current", "Change [interval]", "Verdict"}};
  std::vector<const MetricComparison*> not_compared;
  size_t hidden = 0;
  for (const MetricComparison& row : report.rows) {
    if (row.outcome != Outcome::kCompared) {
      not_compared.push_back(&row);
    } else if (!ShownInTables(report, row)) {
      ++hidden;
    } else {
      table.push_back({DisplayName(report, row), FormatMetricValue(*row.metric, row.baseline.value),
                       FormatMetricValue(*row.metric, row.current.value), FormatChangeInterval(row.change),
                       VerdictText(report, row, false)});
    }
  }
  WriteAligned(table, out);
  if (hidden > 0)
    out << fmt::format(
        "({} more row{} in the JSON: counters that did not change, mean times that tell what "
        "the typical time tells.)\n",
        hidden, hidden == 1 ? "" : "s");
  if (!not_compared.empty()) out << "\nNot compared:\n";
  for (const MetricComparison* row : not_compared)
    out << fmt::format("  {}: {}\n", DisplayName(report, *row),
                       row->note.empty() ? OutcomeName(row->outcome) : row->note);
  if (!report.warnings.empty()) out << "\n";
  for (const std::string& w : report.warnings) out << w << "\n";
  if (report.method == CompareMethod::kSamples && std::isinf(report.options.noise_floor) &&
      report.options.calibrated_floors.empty() && report.Family(MetricFamily::kTiming).rows > 0)
    out << "\nTiming rows are inconclusive: one run per side cannot see the noise between runs (here it "
           "is unknown). Give --aa-runs or --noise-floor, or gate with dbx-bench ab.\n";
  out << "\n" << VerdictRuleText(report) << ".\n";
  const std::string detectable = DetectableText(report);
  if (!detectable.empty()) out << detectable << "\n";
  out << fmt::format("{}: {} compared: {} regressed, {} inconclusive, {} no regression ({} improved); {}.\n",
                     report.GateFailed() ? "FAIL" : "OK", report.Count(Outcome::kCompared),
                     report.Count(Verdict::kRegressed), report.Count(Verdict::kInconclusive),
                     report.Count(Verdict::kNoRegression) + report.Count(Verdict::kImproved),
                     report.Count(Verdict::kImproved), GateLine(report));
  return StreamStatus(out, "the comparison");
}

Status WriteCompareMarkdown(const ComparisonReport& report, std::ostream& out) {
  out << "### dbx-bench compare: " << (report.GateFailed() ? "❌ " : "✅ ") << GateLine(report) << "\n\n";
  out << fmt::format("Baseline {} → current {}.\n\n", EscapeTableCell(Describe(report.baseline)),
                     EscapeTableCell(Describe(report.current)));
  for (size_t i = 0; i < report.warnings.size(); ++i) out << (i == 0 ? "> " : ">\n> ") << report.warnings[i] << "\n";
  if (!report.warnings.empty()) out << "\n";
  out << "| Benchmark | Baseline | Current | Change [interval] | Verdict |\n|:--|--:|--:|:--|:--|\n";
  for (const MetricComparison& row : report.rows) {
    if (!ShownInTables(report, row)) continue;
    const std::string name = EscapeTableCell(DisplayName(report, row));
    std::string change = FormatChangeInterval(row.change);
    if (row.outcome != Outcome::kCompared) {
      change = !row.note.empty()                         ? row.note
               : row.outcome == Outcome::kOnlyInBaseline ? "not in the current run"
                                                         : "not in the baseline";
    } else if (!row.note.empty()) {
      change += "; " + row.note;
    }
    out << fmt::format("| {} | {} | {} | {} | {} |\n", name, FormatMetricValue(*row.metric, row.baseline.value),
                       FormatMetricValue(*row.metric, row.current.value), EscapeTableCell(change),
                       VerdictText(report, row, true));
  }
  const std::string detectable = DetectableText(report);
  out << "\n<sub>" << MethodText(report) << ". " << VerdictRuleText(report) << "."
      << (detectable.empty() ? "" : " " + detectable) << "</sub>\n";
  return StreamStatus(out, "the Markdown comparison");
}

}  // namespace dbxb
