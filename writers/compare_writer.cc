#include "writers/compare_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "stats/paired_stats.h"
#include "writers/format.h"
#include "writers/markdown_methodology.h"
#include "writers/reporter.h"

namespace dbxb {
namespace {

using Json = nlohmann::ordered_json;

// The name of a row, with its parameters when another row has the same name but other parameters,
// or always for a row that was not compared (differing parameters are a common reason).
std::string DisplayName(const ComparisonReport& report, const MetricComparison& row) {
  std::string name = row.key.Name();
  if (row.metric != "time") name += " (" + row.metric + ")";
  if (row.outcome != Outcome::kCompared) return name + " [" + JoinKeyValues(row.key.parameters) + "]";
  for (const MetricComparison& other : report.rows) {
    if (&other != &row && other.key.Name() == row.key.Name() && other.key.parameters != row.key.parameters)
      return name + " [" + JoinKeyValues(row.key.parameters) + "]";
  }
  return name;
}

std::string FormatValue(const MetricComparison& row, double value) {
  if (std::isnan(value)) return "—";
  if (row.metric == "throughput") return FormatRate(value, "op/s");
  if (row.metric == "fsyncs_per_commit") return FormatFixed(value, 2);
  if (row.metric == "write_bytes_per_op" || row.metric == "disk_bytes") return FormatBytes(value);
  return FormatDuration(value);  // "time" and "p99"
}

const char* MetricUnit(const std::string& metric) {
  if (metric == "throughput") return "ops/s";
  if (metric == "fsyncs_per_commit") return "fsyncs/commit";
  if (metric == "write_bytes_per_op" || metric == "disk_bytes") return "bytes";
  return "ns";
}

std::string ShortCommit(const RunLabel& l) {
  std::string c = l.git_commit.substr(0, 7);
  return l.git_dirty ? c + ", dirty" : c;
}

std::string Describe(const RunLabel& l) {
  return fmt::format("{} ({}, {}, commit {})", l.source.empty() ? "(unnamed)" : l.source, l.host_name, l.date_utc,
                     ShortCommit(l));
}

std::string ConfidenceHeader(double level) { return fmt::format("{:g} % CI", level * 100); }

std::string GateLine(const ComparisonReport& report) {
  const size_t over = report.RegressionsOverThreshold();
  std::string threshold = FormatPercent(report.options.max_regression);
  const size_t unconfirmed = report.Unconfirmed();
  std::string also = unconfirmed == 0 ? "" : fmt::format(" ({} unconfirmed, within the noise floor)", unconfirmed);
  if (over == 0) return fmt::format("no regression over {}{}", threshold, also);
  return fmt::format("{} regression{} over {}{}", over, over == 1 ? "" : "s", threshold, also);
}

// The verdict of a row in words; `markdown` adds the ✅ / ⚠️ / ❌ mark.
std::string VerdictText(const ComparisonReport& report, const MetricComparison& row, bool markdown) {
  std::string mark, text;
  switch (row.outcome) {
    case Outcome::kOnlyInBaseline:
    case Outcome::kOnlyInCurrent:
    case Outcome::kFailed:
    case Outcome::kInsufficientData:
      mark = "⚠️ ";
      text = OutcomeName(row.outcome);
      break;
    case Outcome::kCompared:
      text = VerdictName(row.verdict);
      if (row.over_threshold) {
        mark = "❌ ";
        if (!markdown) text += fmt::format(", over the {} gate", FormatPercent(report.options.max_regression));
      } else if (row.unconfirmed) {
        mark = "⚠️ ";
        text += fmt::format(", unconfirmed (within the {} noise floor of one run per side)",
                            FormatPercent(row.noise_floor));
      } else if (row.verdict == Verdict::kRegressed) {
        mark = "⚠️ ";
        if (!markdown) text += fmt::format(", within the {} gate", FormatPercent(report.options.max_regression));
      } else {
        mark = "✅ ";
      }
      break;
  }
  return markdown ? mark + text : text;
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

std::string MethodNote(const ComparisonReport& report) {
  const CompareOptions& o = report.options;
  std::string verdicts = fmt::format(
      "p: adjusted by Holm's method over the {} compared rows. Verdicts as Criterion.rs gives them, on the adjusted "
      "p: significance {:g}, noise threshold ±{}. The gate fails on a regression whose favourable bound is still more "
      "than {} worse",
      report.Count(Outcome::kCompared), o.significance, FormatPercent(o.noise_threshold),
      FormatPercent(o.max_regression));
  switch (report.method) {
    case CompareMethod::kPairedRounds:
      return fmt::format(
          "{} paired rounds (ABBA order). Each round's estimate: the lower quartile of its samples' time per "
          "iteration (bursts of load from other processes hit some samples, a lasting slowdown moves all); a phase's "
          "total throughput and the p99 of its merged histogram. Change: {:g} % trimmed geometric mean of the "
          "per-round ratios current / baseline − 1 ({} round{} trimmed from each end), with the {:g} % interval and p "
          "of Tukey and McLaughlin's trimmed-mean t-test of the log ratios. {}.",
          report.baseline_runs, kTrimProportion * 100, TrimCount(report.baseline_runs, kTrimProportion),
          TrimCount(report.baseline_runs, kTrimProportion) == 1 ? "" : "s", o.confidence_level * 100, verdicts);
    case CompareMethod::kRuns:
      return fmt::format(
          "{} baseline and {} current runs. Change: ratio of the geometric means of the run-level estimates − 1 (the "
          "lower quartile of a run's time per iteration; a phase's total throughput and the p99 of its merged "
          "histogram), with its {:g} % Welch t "
          "interval on the log scale; p: Welch t-test of the log estimates. {}.",
          report.baseline_runs, report.current_runs, o.confidence_level * 100, verdicts);
    case CompareMethod::kSamples:
      break;
  }
  return fmt::format(
      "One run per side. Change: relative change of the mean (current / baseline − 1) of the time per iteration, with "
      "its {:g} % bootstrap interval; a phase's throughput (its total) and p99 (its merged histogram), with intervals "
      "from a moving-block bootstrap of its per-second values; p: two-tailed bootstrap Welch t-test. {} resamples, "
      "seed {}. {}, and (one run per side measures no between-run noise) beyond the noise floor ({} unless "
      "calibrated); a regression within the floor is unconfirmed and does not fail the gate.",
      o.confidence_level * 100, FormatInteger(o.resamples), o.seed, verdicts, FormatPercent(o.noise_floor));
}

Json NumberOrNull(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }

Json IntervalJson(const Interval& i) {
  Json j;
  j["point"] = NumberOrNull(i.point);
  j["lower"] = NumberOrNull(i.lower);
  j["upper"] = NumberOrNull(i.upper);
  j["std_error"] = NumberOrNull(i.std_error);
  return j;
}

Json LabelJson(const RunLabel& l) {
  Json j;
  j["source"] = l.source;
  j["host_name"] = l.host_name;
  j["date_utc"] = l.date_utc;
  j["git_commit"] = l.git_commit;
  j["git_dirty"] = l.git_dirty;
  j["tool_version"] = l.tool_version;
  return j;
}

Json SideJson(double mean, double median, uint64_t count) {
  Json j;
  j["mean"] = NumberOrNull(mean);
  j["median"] = NumberOrNull(median);
  j["count"] = count;
  return j;
}

}  // namespace

std::string FormatChange(double fraction) {
  if (std::isnan(fraction)) return "NaN";
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

std::string FormatPValue(double p) {
  if (std::isnan(p)) return "NaN";
  if (p < 0.001) return "< 0.001";
  return FormatFixed(p, 3);
}

Status WriteCompareConsole(const ComparisonReport& report, std::ostream& out) {
  out << "Baseline: " << Describe(report.baseline) << "\n";
  out << "Current:  " << Describe(report.current) << "\n\n";
  std::vector<std::vector<std::string>> table;
  const bool runs = report.method != CompareMethod::kSamples;
  table.push_back(
      {"Benchmark", "Baseline", "Current",
       std::string(runs ? "Change" : "Mean change") + " [" + ConfidenceHeader(report.options.confidence_level) + "]",
       "Median change", "p (Holm)", "Verdict"});
  std::vector<const MetricComparison*> not_compared;
  for (const MetricComparison& row : report.rows) {
    if (row.outcome != Outcome::kCompared) {
      not_compared.push_back(&row);
      continue;
    }
    table.push_back({DisplayName(report, row), FormatValue(row, row.baseline_mean), FormatValue(row, row.current_mean),
                     FormatChangeInterval(row.mean_change), FormatChange(row.median_change.point),
                     FormatPValue(row.p_adjusted), VerdictText(report, row, false)});
  }
  WriteAligned(table, out);
  if (!not_compared.empty()) {
    out << "\nNot compared:\n";
    for (const MetricComparison* row : not_compared) {
      std::string why = row->note.empty() ? OutcomeName(row->outcome) : row->note;
      out << fmt::format("  {}: {}\n", DisplayName(report, *row), why);
    }
  }
  if (!report.warnings.empty()) out << "\n";
  for (const std::string& w : report.warnings) out << w << "\n";
  size_t improved = 0, regressed = 0;
  for (const MetricComparison& row : report.rows) {
    if (row.outcome != Outcome::kCompared) continue;
    improved += row.verdict == Verdict::kImproved;
    regressed += row.verdict == Verdict::kRegressed;
  }
  out << fmt::format("\n{}: {} compared, {} improved, {} regressed; {}.\n", report.GateFailed() ? "FAIL" : "OK",
                     report.Count(Outcome::kCompared), improved, regressed, GateLine(report));
  return StreamStatus(out, "the comparison");
}

Status WriteCompareMarkdown(const ComparisonReport& report, std::ostream& out) {
  out << "### dbx-bench compare: " << (report.GateFailed() ? "❌ " : "✅ ") << GateLine(report) << "\n\n";
  out << fmt::format("Baseline {} → current {}.\n\n", EscapeTableCell(Describe(report.baseline)),
                     EscapeTableCell(Describe(report.current)));
  for (size_t i = 0; i < report.warnings.size(); ++i) out << (i == 0 ? "> " : ">\n> ") << report.warnings[i] << "\n";
  if (!report.warnings.empty()) out << "\n";
  out << "| Benchmark | Baseline | Current | Change [" << ConfidenceHeader(report.options.confidence_level)
      << "] | p (Holm) | Verdict |\n";
  out << "|:--|--:|--:|:--|--:|:--|\n";
  for (const MetricComparison& row : report.rows) {
    std::string name = EscapeTableCell(DisplayName(report, row));
    if (row.outcome != Outcome::kCompared) {
      std::string why = !row.note.empty()                         ? row.note
                        : row.outcome == Outcome::kOnlyInBaseline ? "not in the current run"
                                                                  : "not in the baseline";
      out << fmt::format("| {} | {} | {} | {} | | {} |\n", name, FormatValue(row, row.baseline_mean),
                         FormatValue(row, row.current_mean), EscapeTableCell(why), VerdictText(report, row, true));
      continue;
    }
    out << fmt::format("| {} | {} | {} | {} | {} | {} |\n", name, FormatValue(row, row.baseline_mean),
                       FormatValue(row, row.current_mean), FormatChangeInterval(row.mean_change),
                       FormatPValue(row.p_adjusted), VerdictText(report, row, true));
  }
  out << "\n<sub>" << MethodNote(report) << "</sub>\n";
  return StreamStatus(out, "the Markdown comparison");
}

Json CompareToJson(const ComparisonReport& report) {
  const CompareOptions& o = report.options;
  Json j;
  j["format"] = "dbx-bench-compare";
  j["version"] = kCompareJsonVersion;
  j["method"] = CompareMethodName(report.method);
  j["baseline"] = LabelJson(report.baseline);
  j["baseline"]["runs"] = report.baseline_runs;
  j["current"] = LabelJson(report.current);
  j["current"]["runs"] = report.current_runs;
  Json options;
  options["significance"] = o.significance;
  options["noise_threshold"] = o.noise_threshold;
  options["max_regression"] = o.max_regression;
  options["confidence_level"] = o.confidence_level;
  options["resamples"] = o.resamples;
  options["seed"] = o.seed;
  options["noise_floor"] = o.noise_floor;
  j["options"] = options;
  j["warnings"] = report.warnings;
  Json gate;
  gate["max_regression"] = o.max_regression;
  gate["regressions_over_threshold"] = report.RegressionsOverThreshold();
  gate["unconfirmed"] = report.Unconfirmed();
  gate["failed"] = report.GateFailed();
  j["gate"] = gate;
  Json rows = Json::array();
  for (const MetricComparison& row : report.rows) {
    Json r;
    r["suite"] = row.key.suite;
    r["workload"] = row.key.workload;
    r["engine"] = row.key.engine;
    Json params = Json::object();
    for (const auto& [k, v] : row.key.parameters) params[k] = v;
    r["parameters"] = params;
    r["phase"] = row.key.phase;
    r["dataset"] = row.key.dataset;
    r["metric"] = row.metric;
    r["unit"] = MetricUnit(row.metric);
    r["direction"] = row.direction == Direction::kLowerIsBetter ? "lower_is_better" : "higher_is_better";
    r["outcome"] = OutcomeName(row.outcome);
    r["note"] = row.note;
    r["baseline"] = SideJson(row.baseline_mean, row.baseline_median, row.baseline_count);
    r["current"] = SideJson(row.current_mean, row.current_median, row.current_count);
    const bool compared = row.outcome == Outcome::kCompared;
    if (compared) {
      Json change;
      change["mean"] = IntervalJson(row.mean_change);
      change["median"] = IntervalJson(row.median_change);
      r["change"] = change;
    } else {
      r["change"] = nullptr;
    }
    r["t"] = compared ? NumberOrNull(row.t) : Json(nullptr);
    r["p_value"] = compared ? NumberOrNull(row.p_value) : Json(nullptr);
    r["p_adjusted"] = compared ? NumberOrNull(row.p_adjusted) : Json(nullptr);
    r["verdict"] = compared ? Json(VerdictName(row.verdict)) : Json(nullptr);
    r["over_threshold"] = compared && row.over_threshold;
    r["unconfirmed"] = compared && row.unconfirmed;
    r["noise_floor"] = compared && report.method == CompareMethod::kSamples ? Json(row.noise_floor) : Json(nullptr);
    if (report.method == CompareMethod::kPairedRounds) {
      Json ratios = Json::array();
      for (double x : row.ratios) ratios.push_back(NumberOrNull(x));
      r["ratios"] = ratios;
      r["signed_rank_p"] = compared ? NumberOrNull(row.signed_rank_p) : Json(nullptr);
      r["trimmed_rounds"] = compared ? Json(row.trimmed_rounds) : Json(nullptr);
    }
    rows.push_back(r);
  }
  j["benchmarks"] = rows;
  return j;
}

std::string SerializeComparison(const ComparisonReport& report) {
  return CompareToJson(report).dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace dbxb
