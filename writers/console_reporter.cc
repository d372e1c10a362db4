#include "writers/console_reporter.h"

#include <fmt/format.h>

#include <string>
#include <utility>
#include <vector>

#include "writers/capacity_report.h"
#include "writers/format.h"
#include "writers/markdown_methodology.h"
#include "writers/markdown_phases.h"
#include "writers/markdown_reporter.h"
#include "writers/markdown_resources.h"
#include "writers/sweep_report.h"

namespace dbxb {
namespace {

// Criterion aligns the interval lines under a 24-column name field.
constexpr std::string_view kIndent = "                        ";

// Criterion's precision: 5 significant digits.
constexpr int kDigits = 5;

void WriteOutliers(const BenchmarkResult& b, std::ostream& out) {
  const OutlierCounts& o = b.outliers;
  uint64_t total = o.total();
  if (total == 0) return;
  double n = static_cast<double>(b.samples.size());
  auto share = [&](uint64_t count) { return n > 0 ? static_cast<double>(count) / n : 0.0; };
  out << fmt::format("Found {} outlier{} among {} measurements ({})\n", total, total == 1 ? "" : "s", b.samples.size(),
                     FormatPercent(share(total)));
  const std::pair<uint64_t, const char*> kinds[] = {{o.low_severe, "low severe"},
                                                    {o.low_mild, "low mild"},
                                                    {o.high_mild, "high mild"},
                                                    {o.high_severe, "high severe"}};
  for (const auto& [count, kind] : kinds) {
    if (count > 0) out << fmt::format("  {} ({}) {}\n", count, FormatPercent(share(count)), kind);
  }
}

}  // namespace

ConsoleReporter::ConsoleReporter(std::string baseline_engine) : baseline_engine_(std::move(baseline_engine)) {}

void ConsoleReporter::ReportBenchmark(const BenchmarkResult& b, std::ostream& out) {
  std::string name = BenchmarkName(b);
  if (b.error_occurred) {
    out << name << ": FAILED: " << b.error_message << "\n";
    return;
  }
  const Interval& time =
      b.estimates.slope && b.sampling_mode == SamplingMode::kLinear ? *b.estimates.slope : b.estimates.mean;
  out << name << "\n";
  out << fmt::format("{}time:   [{} {} {}]\n", kIndent, FormatDuration(time.lower, kDigits),
                     FormatDuration(time.point, kDigits), FormatDuration(time.upper, kDigits));
  if (b.elements_per_iteration > 0) {
    out << fmt::format("{}thrpt:  [{} {} {}]\n", kIndent, FormatThroughput(b.throughput.lower, kDigits),
                       FormatThroughput(b.throughput.point, kDigits), FormatThroughput(b.throughput.upper, kDigits));
  }
  WriteOutliers(b, out);
  for (const std::string& note : b.sampling_notes) out << "Note: " << note << "\n";
}

void ConsoleReporter::ReportPhase(const PhaseResult& phase, std::ostream& out) { out << PhaseSummaryLine(phase); }

void ConsoleReporter::ReportSummary(const RunResults& results, std::ostream& out) {
  WriteComparisonTables(results, BaselineEngine(results, baseline_engine_), out);
  WritePhaseTables(results, out);
  WriteCapacityTables(results, out);
  WriteSweepTables(results, out);
  WriteResourceTables(results, out);
  for (const std::string& w : ReadingWarnings(results)) out << w << "\n";
}

Status ConsoleReporter::Write(const RunResults& results, std::ostream& out) {
  for (const BenchmarkResult& b : results.benchmarks) {
    ReportBenchmark(b, out);
    out << "\n";
  }
  for (const PhaseResult& p : results.phases) ReportPhase(p, out);
  if (!results.phases.empty()) out << "\n";
  ReportSummary(results, out);
  return StreamStatus(out, "the console report");
}

void ProgressLine::WarmingUp(std::string_view name, double seconds) {
  Show(fmt::format("{}\n{}", name, "warmup"), fmt::format("{}: Warming up for {} s", name, FormatFixed(seconds, 4)));
}

void ProgressLine::Collecting(std::string_view name, uint64_t done, uint64_t total) {
  std::string key = fmt::format("{}\n{}", name, "collect");
  if (is_tty_)
    Show(key, fmt::format("{}: Collecting {} samples ... {}/{}", name, total, done, total));
  else
    Show(key, fmt::format("{}: Collecting {} samples", name, total));
}

void ProgressLine::Analyzing(std::string_view name) {
  Show(fmt::format("{}\n{}", name, "analyze"), fmt::format("{}: Analyzing", name));
}

void ProgressLine::Running(std::string_view name, std::string_view what) {
  Show(fmt::format("{}\n{}", name, "run"), fmt::format("{}: Running {}", name, what));
}

void ProgressLine::Clear() {
  if (is_tty_ && showing_) {
    out_ << "\r\x1b[2K" << std::flush;
    showing_ = false;
  }
  last_phase_.clear();
}

void ProgressLine::Show(const std::string& phase_key, const std::string& text) {
  if (is_tty_) {
    out_ << "\r\x1b[2K" << text << std::flush;
    showing_ = true;
    return;
  }
  if (phase_key == last_phase_) return;
  last_phase_ = phase_key;
  out_ << text << "\n" << std::flush;
}

}  // namespace dbxb
