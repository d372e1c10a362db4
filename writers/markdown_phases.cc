#include "writers/markdown_phases.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "records/grouping.h"
#include "records/record_names.h"
#include "writers/format.h"
#include "writers/markdown_methodology.h"

namespace dbxb {
namespace {

std::string RowName(const PhaseResult& p) { return EscapeTableCell(p.phase) + (p.incomplete ? " (incomplete)" : ""); }

std::string Latencies(const LatencySummary& l) {
  return fmt::format("{} | {} | {} | {}", FormatDuration(l.p50_ns), FormatDuration(l.p95_ns), FormatDuration(l.p99_ns),
                     FormatDuration(l.p999_ns));
}

// The facts under a table that change how its rows read.
std::vector<std::string> GroupNotes(const PhaseGroup& g) {
  std::vector<std::string> notes;
  for (const PhaseResult* p : g.members) {
    if (p->error_occurred) continue;
    std::string name = EscapeTableCell(p->phase);
    std::string note =
        fmt::format("{}: {} thread{}, {} operation{} in {}", name, p->threads, p->threads == 1 ? "" : "s",
                    FormatInteger(p->operations), p->operations == 1 ? "" : "s", FormatDuration(p->duration_ns));
    if (p->rows_per_operation > 1) {
      note +=
          fmt::format("; one operation is a batch of up to {} rows ({} rows/s)", FormatInteger(p->rows_per_operation),
                      FormatCount(p->throughput_ops_per_sec * static_cast<double>(p->rows_per_operation)));
    }
    if (p->target_rate > 0) {
      note += fmt::format("; open loop at {} ops/s", FormatCount(p->target_rate));
      if (p->latency_from_intended_start) {
        const LatencySummary& i = *p->latency_from_intended_start;
        note +=
            fmt::format(", latency from the intended start p50 {}, p95 {}, p99 {}, p999 {}", FormatDuration(i.p50_ns),
                        FormatDuration(i.p95_ns), FormatDuration(i.p99_ns), FormatDuration(i.p999_ns));
      }
    }
    notes.push_back(note + ".");
  }
  std::set<std::string> methods;
  for (const PhaseResult* p : g.members)
    if (!p->memory_method.empty()) methods.insert(p->memory_method);
  for (const std::string& m : methods) notes.push_back("Memory: " + EscapeTableCell(m) + ".");
  return notes;
}

void WriteGroup(const PhaseGroup& g, std::ostream& out) {
  const PhaseResult& f = g.first();
  out << "## " << JoinNonEmpty({f.suite, f.workload, f.dataset, f.engine}, " / ") << "\n\n";
  out << "| Phase | Throughput (ops/s) | p50 | p95 | p99 | p999 | Ops/hour |\n";
  out << "|:--|--:|--:|--:|--:|--:|--:|\n";
  for (const PhaseResult* p : g.members) {
    if (p->error_occurred) {
      std::string reason = p->error_message.empty() ? "(no reason recorded)" : EscapeTableCell(p->error_message);
      out << "| " << RowName(*p) << " | FAILED: " << reason << " | | | | | |\n";
      continue;
    }
    out << fmt::format("| {} | {} | {} | {} |\n", RowName(*p), FormatCount(p->throughput_ops_per_sec),
                       Latencies(p->service_time), FormatCount(p->throughput_ops_per_sec * 3600));
  }
  out << "\n";
  std::vector<std::string> notes = GroupNotes(g);
  for (const std::string& n : notes) out << "- " << n << "\n";
  if (!notes.empty()) out << "\n";

  bool by_type = std::any_of(g.members.begin(), g.members.end(),
                             [](const PhaseResult* p) { return !p->error_occurred && p->per_op.size() > 1; });
  if (!by_type) return;
  out << "| Phase | Operation | Count | Throughput (ops/s) | p50 | p95 | p99 | p999 |\n";
  out << "|:--|:--|--:|--:|--:|--:|--:|--:|\n";
  for (const PhaseResult* p : g.members) {
    if (p->error_occurred || p->per_op.size() < 2) continue;
    for (const OpTypeResult& o : p->per_op) {
      out << fmt::format("| {} | {} | {} | {} | {} |\n", RowName(*p), EscapeTableCell(o.name), FormatInteger(o.count),
                         FormatCount(o.throughput_ops_per_sec),
                         o.count > 0 ? Latencies(o.service_time) : "— | — | — | —");
    }
  }
  out << "\n";
}

}  // namespace

std::string PhaseSummaryLine(const PhaseResult& p) {
  if (p.error_occurred) return PhaseName(p) + ": FAILED: " + p.error_message + "\n";
  std::string line = fmt::format("{}: {} ops/s ({} op{}, {} thread{}, {}), p50 {}, p99 {}, p999 {}", PhaseName(p),
                                 FormatCount(p.throughput_ops_per_sec), FormatInteger(p.operations),
                                 p.operations == 1 ? "" : "s", p.threads, p.threads == 1 ? "" : "s",
                                 FormatDuration(p.duration_ns), FormatDuration(p.service_time.p50_ns),
                                 FormatDuration(p.service_time.p99_ns), FormatDuration(p.service_time.p999_ns));
  if (p.target_rate > 0) {
    line += fmt::format(", open loop at {} ops/s", FormatCount(p.target_rate));
    if (p.latency_from_intended_start)
      line += fmt::format(": from intended start p99 {}", FormatDuration(p.latency_from_intended_start->p99_ns));
  }
  if (p.incomplete) line += " [incomplete]";
  return line + "\n";
}

void WritePhaseTables(const RunResults& results, std::ostream& out) {
  for (const PhaseGroup& g : GroupPhasesBySequence(results)) WriteGroup(g, out);
}

void WritePhaseMethodology(const RunResults& results, std::ostream& out) {
  if (results.phases.empty()) return;
  bool open = false, closed = false;
  std::set<uint32_t> threads;
  uint64_t warmup = 0;
  for (const PhaseResult& p : results.phases) {
    (p.target_rate > 0 ? open : closed) = true;
    threads.insert(p.threads);
    warmup += p.warmup_operations;
  }
  out << "### How phases are measured\n\n";
  out << "Every operation of a phase is timed on its own with the monotonic clock and recorded in a per-thread "
         "log-linear histogram (HdrHistogram's algorithm, 3 significant digits: each percentile is within 0.1 % of "
         "the true value; min and max are exact); the threads' histograms are merged after the phase. All threads "
         "start together after their warm-up; throughput is the measured operations over the time from that common "
         "start to the last completion.";
  if (closed)
    out << " Closed loop: each thread issues its next operation as soon as the previous one returns, and the end of "
           "one operation is the start of the next (one clock read per operation).";
  if (open)
    out << " Open loop: operations are issued on a fixed schedule at the target rate; the tables show the service "
           "time (from the actual issue), and the notes the latency from the intended start, which keeps the "
           "queueing delay that slow operations cause (coordinated omission corrected).";
  std::vector<std::string> t;
  for (uint32_t n : threads) t.push_back(std::to_string(n));
  out << fmt::format(" Threads per phase: {}. Warm-up operations (executed and verified, not recorded): {}.\n\n",
                     fmt::join(t, ", "), FormatInteger(warmup));
}

std::vector<std::string> PhaseWarnings(const RunResults& results) {
  std::vector<std::string> out;
  for (const PhaseResult& p : results.phases) {
    if (p.error_occurred)
      out.push_back(fmt::format("⚠️ Phase {} failed: {}", PhaseName(p), p.error_message));
    else if (p.incomplete)
      out.push_back(fmt::format("⚠️ Phase {} was interrupted: its figures cover what finished.", PhaseName(p)));
  }
  return out;
}

}  // namespace dbxb
