// The publishable report of one or more runs (`dbx-bench report`): a Markdown page that renders on
// GitHub and in Jekyll sites, with one SVG chart per workload next to it. Everything in it is generated
// from the recorded results; nothing is written by hand.
//
// Runs from different machines are never averaged together: each results file gets its own section.
// The writer renders into memory (a list of files); the caller writes them (atomically) to disk.
#pragma once

#include <string>
#include <vector>

#include "records/result.h"

namespace dbxb {

/// The Markdown page's file name: README.md, which GitHub shows when browsing the directory and
/// GitHub Pages serves as the directory's index.
inline constexpr const char* kReportMarkdownName = "README.md";

struct ReportInput {
  std::string source;  ///< where the results came from, shown in the report (e.g. "results/x/results.json")
  RunResults results;
};

struct ReportOptions {
  /// The engine the "vs" column compares against; empty = the first engine of each run
  /// (DefaultBaselineEngine). An engine a run does not have gives "n/a" in that run's tables.
  std::string baseline_engine;
};

struct ReportFile {
  std::string name;  ///< a plain file name (no directory): README.md, bench-host-dbx-micro-get.svg, ...
  std::string contents;
};

/// The report: kReportMarkdownName first, then one SVG per workload table per run, in the order the
/// Markdown links them. The page holds
///  - a title and an index of the runs (host, CPU, date, benchmark count, source);
///  - per run (one section per results file, headed by its host; the date is added when a host has
///    several runs): the run line, the reading warnings (ReadingWarnings), a summary table (per
///    workload, each engine's mean time with 🥇🥈🥉 for the three fastest), per workload the comparison
///    table (WriteComparisonTables: mean, ± std dev, CI, throughput, × vs the baseline engine, rank)
///    followed by its chart, the Methodology (WriteMethodology: engines with versions and native
///    settings, sampling, data shape, machine, overhead, command line, configuration) and "How to
///    reproduce" (commit, build and the exact recorded command line).
/// Chart file names are derived from host, suite and workload (lower case, [a-z0-9-]) and made unique.
/// Deterministic: the same input gives the same bytes.
std::vector<ReportFile> RenderReport(const std::vector<ReportInput>& runs, const ReportOptions& options);

/// `text` (Markdown) with every ATX heading outside code fences moved `levels` levels down
/// ("## a" -> "### a" for 1), so that a section rendered on its own nests inside a larger page.
std::string DemoteHeadings(const std::string& text, int levels);

}  // namespace dbxb
