#include "writers/study_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <sstream>
#include <utility>

#include "records/record_names.h"
#include "writers/format.h"
#include "writers/markdown_methodology.h"

namespace dbxb {
namespace {

constexpr char kSqlite[] = "sqlite";
constexpr char kPostgres[] = "postgres";

std::string Param(const KeyValues& kvs, const std::string& key) {
  for (const auto& [k, v] : kvs)
    if (k == key) return v;
  return "";
}

std::string Display(const std::string& engine) {
  if (engine == kSqlite) return "SQLite";
  if (engine == kPostgres) return "PostgreSQL";
  return engine;
}

const CapacityResult* Of(const StudyRow& row, const std::string& engine) {
  for (const auto& [name, r] : row.engines)
    if (name == engine) return r;
  return nullptr;
}

double Cap(const CapacityResult* r) { return r == nullptr ? 0 : r->capacity_ops_per_sec; }

std::string CapText(const CapacityResult* r) {
  if (r == nullptr) return "—";
  if (!(r->capacity_ops_per_sec > 0)) return "none";
  // No step failed above it (the ramp stopped at its ceiling): the capacity is at least this.
  return (r->upper_step < 0 ? "≥ " : "") + FormatCount(r->capacity_ops_per_sec) + " ops/s";
}

// The lowest target rate that failed: how far down a search that found nothing went.
double LowestFailure(const CapacityResult& r) {
  double lowest = 0;
  for (const CapacityStep& s : r.steps)
    if (s.target_rate > 0 && !s.passed() && (lowest == 0 || s.target_rate < lowest)) lowest = s.target_rate;
  return lowest;
}

// How far down a search that found nothing went: "down to N ops/s", or why it ran no open-loop step.
std::string MissedText(const CapacityResult& r) {
  const double lowest = LowestFailure(r);
  if (lowest > 0) return fmt::format("down to {} ops/s", FormatCount(lowest));
  if (r.harness_floor_ns > r.bound_ns) return "not searched: the harness floor was above the bound";
  for (const CapacityStep& s : r.steps)
    if (s.role == "probe" && s.error.empty())
      return fmt::format("not searched: {} ops/s closed loop, below the lowest rate searched",
                         FormatCount(s.achieved_ops_per_sec));
  return r.error_occurred ? "not searched: " + r.error_message : "not searched";
}

std::string Condition(const StudyRow& row) {
  std::vector<std::string> parts;
  if (!row.dataset.empty()) parts.push_back(row.dataset);
  if (!row.records.empty()) parts.push_back(FormatCount(std::stod(row.records)) + " rows");
  if (!row.durability.empty()) parts.push_back("durability " + row.durability);
  parts.push_back(fmt::format("{} thread{}", row.threads, row.threads == 1 ? "" : "s"));
  return fmt::format("{}", fmt::join(parts, ", "));
}

// "up to N ops/s", or "at least N ops/s" when no step failed above the capacity (the ramp's ceiling).
std::string UpTo(const CapacityResult& r) {
  return fmt::format("{} {} ops/s", r.upper_step < 0 ? "at least" : "up to", FormatCount(Cap(&r)));
}

// The sentence comparing SQLite and PostgreSQL in one row, or "" when either was not measured.
std::string PairVerdict(const StudyRow& row) {
  const CapacityResult* s = Of(row, kSqlite);
  const CapacityResult* p = Of(row, kPostgres);
  if (s == nullptr || p == nullptr) return "";
  const double sc = Cap(s), pc = Cap(p);
  if (sc > 0 && pc > 0) {
    const bool sqlite_ahead = sc >= pc;
    return fmt::format("SQLite holds {} {}, PostgreSQL {}: {} carries {:.1f}× {}'s load.", row.sla, UpTo(*s), UpTo(*p),
                       sqlite_ahead ? "SQLite" : "PostgreSQL", sqlite_ahead ? sc / pc : pc / sc,
                       sqlite_ahead ? "PostgreSQL" : "SQLite");
  }
  if (sc > 0 || pc > 0) {
    const CapacityResult* holds = sc > 0 ? s : p;
    const CapacityResult* misses = sc > 0 ? p : s;
    return fmt::format("Only {} holds {} ({}); {} missed it at every rate tried ({}).", Display(holds->engine), row.sla,
                       UpTo(*holds), Display(misses->engine), MissedText(*misses));
  }
  return fmt::format("Neither SQLite nor PostgreSQL holds {} at any rate tried (SQLite: {}; PostgreSQL: {}).", row.sla,
                     MissedText(*s), MissedText(*p));
}

// Every engine of the row, highest capacity first, and the ones that met the SLA at no rate.
std::string RankVerdict(const StudyRow& row) {
  std::vector<std::pair<std::string, const CapacityResult*>> held;
  std::vector<std::string> none;
  for (const auto& [engine, r] : row.engines) {
    if (Cap(r) > 0)
      held.emplace_back(engine, r);
    else
      none.push_back(fmt::format("{} ({})", Display(engine), MissedText(*r)));
  }
  std::stable_sort(held.begin(), held.end(),
                   [](const auto& a, const auto& b) { return Cap(a.second) > Cap(b.second); });
  std::string out;
  if (!held.empty()) {
    std::vector<std::string> ranked;
    for (const auto& [engine, r] : held) ranked.push_back(fmt::format("{} {}", Display(engine), CapText(r)));
    out = fmt::format("Highest first: {}.", fmt::join(ranked, ", "));
  }
  if (!none.empty())
    out += fmt::format("{}No rate tried met {} on {}.", out.empty() ? "" : " ", row.sla, fmt::join(none, ", "));
  // When nothing held it: could the machine resolve the bound at all?
  double floor = 0, bound = 0;
  for (const auto& [engine, r] : row.engines) floor = std::max(floor, r->harness_floor_ns), bound = r->bound_ns;
  if (held.empty() && floor > bound)
    out += fmt::format(
        " The harness alone measured up to {} at the same percentile there, above the bound: the "
        "machine as it was could not resolve {}.",
        FormatDuration(floor, 3), row.sla);
  return out;
}

void WriteTable(const std::vector<const StudyRow*>& rows, std::ostream& out) {
  std::vector<std::string> engines;
  for (const StudyRow* row : rows)
    for (const auto& [engine, r] : row->engines)
      if (std::find(engines.begin(), engines.end(), engine) == engines.end()) engines.push_back(engine);
  out << "| Condition |";
  for (const std::string& e : engines) out << " " << EscapeTableCell(Display(e)) << " |";
  out << "\n|:--|";
  for (size_t i = 0; i < engines.size(); ++i) out << "--:|";
  out << "\n";
  for (const StudyRow* row : rows) {
    out << "| " << EscapeTableCell(Condition(*row)) << " |";
    for (const std::string& e : engines) out << " " << CapText(Of(*row, e)) << " |";
    out << "\n";
  }
  out << "\n";
  for (const StudyRow* row : rows) {
    std::string pair = PairVerdict(*row), rank = RankVerdict(*row);
    out << "- " << EscapeTableCell(Condition(*row)) << ": " << pair << (pair.empty() ? "" : " ") << rank << "\n";
  }
  out << "\n";
}

// "select-pk, cached, durability normal, 1 thread (5.8×)" lists for the summary.
struct PairSummary {
  std::vector<std::string> sqlite_ahead, postgres_ahead, sqlite_only, postgres_only, neither;
};

PairSummary SummarisePairs(const std::vector<StudyRow>& rows) {
  PairSummary s;
  for (const StudyRow& row : rows) {
    const CapacityResult* sq = Of(row, kSqlite);
    const CapacityResult* pg = Of(row, kPostgres);
    if (sq == nullptr || pg == nullptr) continue;
    const std::string where = row.phase + ", " + Condition(row);
    const double a = Cap(sq), b = Cap(pg);
    if (a > 0 && b > 0)
      (a >= b ? s.sqlite_ahead : s.postgres_ahead)
          .push_back(fmt::format("{} ({:.1f}×)", where, a >= b ? a / b : b / a));
    else if (a > 0)
      s.sqlite_only.push_back(where);
    else if (b > 0)
      s.postgres_only.push_back(where);
    else
      s.neither.push_back(where);
  }
  return s;
}

// A ratio with two significant digits: "1.5", "17", "370".
std::string Times(double ratio) { return ratio >= 100 ? FormatCount(ratio) : fmt::format("{:.2g}", ratio); }

// " (17× lower)", " (5.3× higher)", " (unchanged)" from the first to the last capacity; "" when either is none.
std::string Change(double first, double last) {
  if (!(first > 0) || !(last > 0)) return "";
  const double ratio = last / first;
  if (ratio >= 1.02) return fmt::format(" ({}× higher)", Times(ratio));
  if (ratio <= 1 / 1.02) return fmt::format(" ({}× lower)", Times(1 / ratio));
  return " (unchanged)";
}

// " At threads 4, PostgreSQL overtakes SQLite." where the order of the two changes along `line` (values[i] names
// line[i]); "" when either is missing or the order never changes.
std::string Overtakes(const std::vector<const StudyRow*>& line, const char* what,
                      const std::vector<std::string>& values) {
  auto ahead = [](const StudyRow& r) -> int {
    const CapacityResult* s = Of(r, kSqlite);
    const CapacityResult* p = Of(r, kPostgres);
    if (s == nullptr || p == nullptr || (Cap(s) == 0 && Cap(p) == 0)) return 0;
    return Cap(s) >= Cap(p) ? 1 : -1;  // 1: SQLite ahead (or equal), -1: PostgreSQL ahead
  };
  const int first = ahead(*line.front());
  if (first == 0) return "";
  for (size_t i = 1; i < line.size(); ++i) {
    const int now = ahead(*line[i]);
    if (now != 0 && now != first)
      return fmt::format(" At {} {}, {} overtakes {}.", what, values[i], now > 0 ? "SQLite" : "PostgreSQL",
                         now > 0 ? "PostgreSQL" : "SQLite");
  }
  return "";
}

// Rows that differ only in `field` (the others equal), in order: how each engine's capacity moves along it.
void WriteMoves(const std::vector<StudyRow>& rows, const char* what,
                const std::function<std::string(const StudyRow&)>& field,
                const std::function<std::string(const StudyRow&)>& rest, std::ostream& out) {
  std::vector<std::string> done;
  for (const StudyRow& row : rows) {
    const std::string key = row.sla + "|" + row.phase + "|" + rest(row);
    if (std::find(done.begin(), done.end(), key) != done.end()) continue;
    done.push_back(key);
    std::vector<const StudyRow*> line;
    for (const StudyRow& other : rows)
      if (other.sla + "|" + other.phase + "|" + rest(other) == key) line.push_back(&other);
    if (line.size() < 2) continue;
    std::vector<std::string> values;
    for (const StudyRow* r : line) values.push_back(field(*r));
    std::vector<std::string> engines;
    for (const auto& [engine, r] : line.front()->engines) {
      std::vector<std::string> caps;
      for (const StudyRow* r : line) caps.push_back(CapText(Of(*r, engine)));
      engines.push_back(fmt::format("{} {}{}", Display(engine), fmt::join(caps, " → "),
                                    Change(Cap(Of(*line.front(), engine)), Cap(Of(*line.back(), engine)))));
    }
    out << fmt::format("- {} ({}), {} {}: {}.{}\n", row.phase, rest(row), what, fmt::join(values, " → "),
                       fmt::join(engines, "; "), Overtakes(line, what, values));
  }
}

// "In short": the pair summary and the moves along each condition; nothing when there is neither.
void WriteShort(const std::vector<StudyRow>& rows, std::ostream& section) {
  std::ostringstream out;
  const PairSummary s = SummarisePairs(rows);
  auto list = [&](const char* head, const std::vector<std::string>& items) {
    if (!items.empty()) out << fmt::format("- {} ({}): {}.\n", head, items.size(), fmt::join(items, "; "));
  };
  list("SQLite holds the SLA at a higher rate than PostgreSQL", s.sqlite_ahead);
  list("PostgreSQL holds it at a higher rate than SQLite", s.postgres_ahead);
  list("Only SQLite holds it", s.sqlite_only);
  list("Only PostgreSQL holds it", s.postgres_only);
  list("Neither holds it at any rate tried on this machine", s.neither);
  auto threads = [](const StudyRow& r) { return fmt::format("{} thread{}", r.threads, r.threads == 1 ? "" : "s"); };
  WriteMoves(
      rows, "data set", [](const StudyRow& r) { return r.dataset; },
      [&](const StudyRow& r) { return "durability " + r.durability + ", " + threads(r); }, out);
  WriteMoves(
      rows, "durability", [](const StudyRow& r) { return r.durability; },
      [&](const StudyRow& r) { return r.dataset + ", " + threads(r); }, out);
  WriteMoves(
      rows, "threads", [](const StudyRow& r) { return std::to_string(r.threads); },
      [](const StudyRow& r) { return r.dataset + ", durability " + r.durability; }, out);
  if (out.str().empty()) return;
  section << "### In short\n\n" << out.str() << "\n";
}

}  // namespace

std::vector<StudyRow> StudyRows(const std::vector<const RunResults*>& runs) {
  std::vector<StudyRow> rows;
  for (const RunResults* run : runs) {
    const std::string configured = Param(run->context.configuration, "durability");
    for (const CapacityResult& r : run->capacity) {
      if (r.error_occurred || r.dataset.empty()) continue;
      StudyRow key;
      key.sla = r.sla + (r.latency == "service" ? " (service time)" : "");
      key.phase = r.phase;
      key.dataset = r.dataset;
      key.durability = Param(r.parameters, std::string(kSweepParameterPrefix) + "durability");
      if (key.durability.empty()) key.durability = configured;
      key.threads = r.threads;
      key.records = Param(r.parameters, "records");
      auto it = std::find_if(rows.begin(), rows.end(), [&](const StudyRow& row) {
        return row.sla == key.sla && row.phase == key.phase && row.dataset == key.dataset &&
               row.durability == key.durability && row.threads == key.threads && row.records == key.records;
      });
      if (it == rows.end()) {
        rows.push_back(std::move(key));
        it = rows.end() - 1;
      }
      if (Of(*it, r.engine) == nullptr) it->engines.emplace_back(r.engine, &r);
    }
  }
  return rows;
}

void WriteSqliteOrPostgres(const std::vector<const RunResults*>& runs, std::ostream& out) {
  const std::vector<StudyRow> rows = StudyRows(runs);
  if (rows.empty()) return;
  out << "## SQLite or PostgreSQL?\n\n";
  out << "The study's question — when does an in-process database stop being enough? — answered from the capacity "
         "searches in these results: per phase, the highest rate each engine sustained while meeting the latency "
         "target, under each condition measured (data set, durability, threads). \"none\": no rate tried met "
         "the target; \"—\": not measured. Every sentence below is computed from the table above it.\n\n";
  std::vector<std::string> heads;
  for (const StudyRow& row : rows) {
    const std::string head = row.sla + "|" + row.phase;
    if (std::find(heads.begin(), heads.end(), head) != heads.end()) continue;
    heads.push_back(head);
    std::vector<const StudyRow*> group;
    for (const StudyRow& other : rows)
      if (other.sla + "|" + other.phase == head) group.push_back(&other);
    out << "### " << EscapeTableCell(row.phase) << " at " << EscapeTableCell(row.sla) << "\n\n";
    WriteTable(group, out);
  }
  WriteShort(rows, out);
}

}  // namespace dbxb
