#include "cli/list_command.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <string>
#include <vector>

#include "adapters/adapter.h"
#include "cli/units.h"
#include "workloads/suite.h"

namespace dbxb {
namespace {

// ", released YYYY-MM-DD; flags ..." for what is known of the library's build.
std::string Provenance(const AdapterFactory& f) {
  std::string text;
  if (!f.library_release_date.empty()) text += "; released " + f.library_release_date;
  if (!f.library_flags.empty()) text += "; flags " + f.library_flags;
  return text;
}

void PrintShortList(std::ostream& out) {
  out << "Engines:\n";
  size_t width = 10;  // the longest name: a variant's, e.g. "wiredtiger@debian"
  for (const AdapterFactory& f : BuiltinAdapters().factories()) width = std::max(width, f.name.size());
  for (const AdapterFactory& f : BuiltinAdapters().factories()) {
    out << fmt::format("  {:<{}} {:<16} {:<42} {}\n", f.name, width, f.library_version(), f.library_build(),
                       f.description);
    out << fmt::format("  {:<{}} from {}{}\n", "", width, f.library_source, Provenance(f));
  }
  out << "Suites:\n";
  for (const auto& s : BuiltinSuites().suites()) out << fmt::format("  {:<10} {}\n", s->name(), s->summary());
  out << "(dbx-bench list --engine NAME|all: each engine's durability, native options, settle and limits)\n";
}

// `text` as one cell of a Markdown table: a '|' inside it is escaped.
std::string Cell(const std::string& text) {
  std::string cell;
  for (char c : text) {
    if (c == '|') cell += '\\';
    cell += c;
  }
  return cell;
}

std::string SettingsText(const Settings& settings) {
  std::string text;
  for (const auto& [key, value] : settings) text += fmt::format("{}`{}={}`", text.empty() ? "" : ", ", key, value);
  return Cell(text);
}

void PrintDurability(const AdapterFactory& f, std::ostream& out) {
  out << "Durability (syncs per acknowledged commit: what tests/durability_sync_test.cc measures, rounded; at "
         "`normal` a 0 means fewer than one per commit):\n\n"
         "| level | what it is here | settings it reports | syncs per commit |\n| --- | --- | --- | --- |\n";
  for (Durability d : {Durability::kNone, Durability::kNormal, Durability::kFull}) {
    if (const std::string* why = RefusedDurability(f, d)) {
      out << fmt::format("| `{}` | refused: {} | | |\n", DurabilityName(d), Cell(*why));
      continue;
    }
    const DurabilityMapping& m = f.durability[DurabilityIndex(d)];
    std::string syncs = std::to_string(m.syncs_per_commit);
    if (m.syncs_per_single_put) syncs += fmt::format(" (batch) / {} (single put)", *m.syncs_per_single_put);
    if (d != Durability::kFull && f.syncs_buffers_at_none) syncs += ", plus its own log buffers' syncs";
    out << fmt::format("| `{}` | {} | {} | {} |\n", DurabilityName(d), Cell(m.meaning), SettingsText(m.settings),
                       syncs);
  }
}

void PrintOptions(const AdapterFactory& f, std::ostream& out) {
  if (f.native_options.empty()) {
    out << "\nNative options: none.\n";
    return;
  }
  out << "\nNative options (`--engine-option KEY=VALUE`):\n\n| option | values | default |\n| --- | --- | --- |\n";
  for (const NativeOption& o : f.native_options)
    out << fmt::format("| `{}` | {} | {} |\n", o.key, Cell(o.values), Cell(o.default_value));
}

void PrintLimits(const AdapterFactory& f, std::ostream& out) {
  std::vector<std::string> limits;
  if (f.max_key_bytes > 0) limits.push_back(fmt::format("keys of at most {} bytes", f.max_key_bytes));
  if (!f.allows_empty_key) limits.push_back("no empty key");
  if (!f.atomic_batches) limits.push_back("a batch is not atomic for readers");
  if (f.multi_process) limits.push_back("several processes may share one database (`run --clients`)");
  if (f.syncs_out_of_process) limits.push_back("syncs in its server's processes, counted there");
  if (f.native_loop) limits.push_back("has native loops for `dbx-bench calibrate`");
  if (f.seed_replica) limits.push_back("runs the `seed` suite's replica");
  out << "\nSettle: " << (f.settle.empty() ? std::string("nothing") : f.settle) << ".\n";
  if (!limits.empty()) out << "\nAlso: " << JoinList(limits) << ".\n";
}

void PrintSheet(const AdapterFactory& f, std::ostream& out) {
  out << fmt::format("## {} — {} ({})\n\n{}\n\n", f.name, f.library_version(), f.library_build(), f.description);
  out << fmt::format("Library: {}, from {}{}.\n\n", f.library_version(), f.library_source, Provenance(f));
  if (f.name != "null") PrintDurability(f, out);
  PrintOptions(f, out);
  PrintLimits(f, out);
}

}  // namespace

CLI::App* AddListCommand(CLI::App* app, ListArgs* args) {
  CLI::App* cmd = app->add_subcommand("list", "List the engines (with library versions and builds) and suites");
  cmd->add_option("--engine", args->engines,
                  "Comma-separated engines, or all: each one's durability levels, native options, settle and limits");
  return cmd;
}

CommandResult RunList(const ListArgs& args, std::ostream& out) {
  if (args.engines.empty()) {
    PrintShortList(out);
    return {};
  }
  std::vector<const AdapterFactory*> engines;
  if (args.engines == "all") {
    for (const AdapterFactory& f : BuiltinAdapters().factories()) engines.push_back(&f);
  } else {
    for (const std::string& name : SplitList(args.engines)) {
      const AdapterFactory* f = BuiltinAdapters().Find(name);
      if (f == nullptr) return BadInput(fmt::format("--engine: unknown engine '{}' (see dbx-bench list)", name));
      engines.push_back(f);
    }
  }
  for (size_t i = 0; i < engines.size(); ++i) {
    if (i > 0) out << "\n";
    PrintSheet(*engines[i], out);
  }
  return {};
}

}  // namespace dbxb
