#include "writers/markdown_resources.h"

#include <fmt/format.h>

#include <algorithm>

#include "writers/format.h"
#include "writers/markdown_methodology.h"

namespace dbxb {
namespace {

std::string Ratio(const std::optional<double>& v) { return v ? fmt::format("{:.2f}×", *v) : "—"; }

std::string FsyncsPerCommit(const ResourceUsage& u) {
  if (!u.fsync_calls) return "not counted";
  if (!u.fsyncs_per_commit) return "—";
  return fmt::format("{:.2f}", *u.fsyncs_per_commit);
}

ResourceTable* FindOrAdd(std::vector<ResourceTable>* tables, const std::string& title, const KeyValues& parameters,
                         bool phases) {
  auto it = std::find_if(tables->begin(), tables->end(), [&](const ResourceTable& t) {
    return t.title == title && t.parameters == parameters && t.phases == phases;
  });
  if (it != tables->end()) return &*it;
  tables->push_back(ResourceTable{title, parameters, phases, {}});
  return &tables->back();
}

std::string JoinTitle(std::initializer_list<std::string> parts) {
  std::string out;
  for (const std::string& p : parts) {
    if (p.empty()) continue;
    if (!out.empty()) out += " / ";
    out += p;
  }
  return out;
}

}  // namespace

std::vector<ResourceTable> ResourceTables(const RunResults& results) {
  std::vector<ResourceTable> tables;
  for (const BenchmarkResult& b : results.benchmarks) {
    ResourceRow row{"", b.engine, b.resources ? &*b.resources : nullptr, b.error_occurred};
    FindOrAdd(&tables, JoinTitle({b.suite, b.workload}), b.parameters, false)->rows.push_back(row);
  }
  for (const PhaseResult& p : results.phases) {
    ResourceRow row{p.phase, p.engine, p.resources ? &*p.resources : nullptr, p.error_occurred};
    FindOrAdd(&tables, JoinTitle({p.suite, p.workload, p.dataset}), {}, true)->rows.push_back(row);
  }
  tables.erase(std::remove_if(tables.begin(), tables.end(),
                              [](const ResourceTable& t) {
                                return std::none_of(t.rows.begin(), t.rows.end(),
                                                    [](const ResourceRow& r) { return r.usage != nullptr; });
                              }),
               tables.end());
  return tables;
}

void WriteResourceTable(const ResourceTable& table, std::ostream& out) {
  out << "## Resources: " << EscapeTableCell(table.title) << "\n\n";
  if (!table.parameters.empty()) out << "Parameters: " << EscapeTableCell(JoinKeyValues(table.parameters)) << "\n\n";
  out << (table.phases ? "| Phase | Engine |" : "| Engine |")
      << " CPU/op | Max RSS | Anon RSS | Written/op | Write amp | Disk | Space amp | fsyncs/commit |\n";
  out << (table.phases ? "|:--|:--|" : "|:--|") << "--:|--:|--:|--:|--:|--:|--:|--:|\n";
  for (const ResourceRow& r : table.rows) {
    out << "| ";
    if (table.phases) out << EscapeTableCell(r.phase) << " | ";
    out << EscapeTableCell(r.engine) << " | ";
    if (r.usage == nullptr) {
      out << (r.failed ? "FAILED" : "not recorded") << " | | | | | | | |\n";
      continue;
    }
    const ResourceUsage& u = *r.usage;
    out << fmt::format("{} | {} | {} | {} | {} | {} | {} | {} |{}\n", FormatDuration(u.cpu_ns_per_op),
                       FormatBytes(static_cast<double>(u.max_rss_bytes)),
                       FormatBytes(static_cast<double>(u.anon_rss_bytes)), FormatBytes(u.io_write_bytes_per_op),
                       Ratio(u.write_amplification), FormatBytes(static_cast<double>(u.disk_bytes)),
                       Ratio(u.space_amplification), FsyncsPerCommit(u), r.failed ? " (failed)" : "");
  }
  out << "\n";
}

std::string ResourceLegend() {
  return "CPU/op is the whole process's user + system CPU (engine background threads included) per operation "
         "(per row for dbx-micro). Max RSS is the peak resident set over the benchmark or phase, Anon RSS the "
         "anonymous (heap) part at its end, without mapped database files. Written/op is what reached the block "
         "layer (/proc/self/io write_bytes) per operation; write amp is those bytes ÷ the key + value bytes the "
         "workload wrote; Disk is the allocated size of the database files at the end, space amp that ÷ the live "
         "key + value bytes. fsyncs/commit counts fsync, fdatasync, msync(MS_SYNC) and sync_file_range with a wait "
         "per acknowledged commit. For dbx-micro the figures cover the measured samples (insert: with each "
         "iteration's untimed open and close); for phases the measured part, not the warm-up.\n\n";
}

void WriteResourceTables(const RunResults& results, std::ostream& out) {
  const std::vector<ResourceTable> tables = ResourceTables(results);
  if (tables.empty()) return;
  for (const ResourceTable& t : tables) WriteResourceTable(t, out);
  out << ResourceLegend();
}

}  // namespace dbxb
