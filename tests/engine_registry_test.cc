// The registry is the one list of engines (adapters/adapter.cc): what the rest of the project says about
// an engine derives from its registration or is checked against it here. scripts/install-deps.sh installs
// every Debian package an engine declares; every engine declares each durability level it honours, what its
// settle does and what its native options take; `dbx-bench list --engine` prints those declarations.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "adapters/adapter.h"
#include "cli/list_command.h"

namespace dbxb {
namespace {

// The packages of install-deps.sh's PACKAGES array: every word between "PACKAGES=(" and ")", comments cut.
std::set<std::string> InstalledPackages() {
  std::ifstream in(std::string(DBXB_SOURCE_DIR) + "/scripts/install-deps.sh");
  std::set<std::string> packages;
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("PACKAGES=(", 0) == 0) {
      inside = true;
      line = line.substr(10);
    }
    if (!inside) continue;
    line = line.substr(0, line.find('#'));
    const size_t close = line.find(')');
    std::istringstream words(line.substr(0, close));
    for (std::string word; words >> word;) packages.insert(word);
    if (close != std::string::npos) break;
  }
  return packages;
}

TEST(EngineRegistry, InstallDepsInstallsEveryPackageAnEngineDeclares) {
  const std::set<std::string> installed = InstalledPackages();
  ASSERT_GT(installed.size(), 5u) << "scripts/install-deps.sh: no PACKAGES=( ... ) array read";
  for (const AdapterFactory& f : BuiltinAdapters().factories()) {
    if (f.library_build().rfind("debian-package", 0) == 0) {
      EXPECT_FALSE(f.debian_packages.empty()) << f.name << " links a Debian package but declares none";
    }
    for (const std::string& package : f.debian_packages)
      EXPECT_EQ(installed.count(package), 1u)
          << f.name << " needs " << package << ", which install-deps.sh does not install";
  }
}

TEST(EngineRegistry, EveryEngineDeclaresItsLevelsSettleAndOptions) {
  for (const AdapterFactory& f : BuiltinAdapters().factories()) {
    for (const NativeOption& o : f.native_options) {
      EXPECT_EQ(o.key.rfind(OptionPrefix(f) + ".", 0), 0u) << f.name << ": option " << o.key << " lacks its prefix";
      EXPECT_FALSE(o.values.empty()) << o.key << ": what it takes is not said";
      EXPECT_FALSE(o.default_value.empty()) << o.key << ": its default is not said";
    }
    if (f.name == "null") continue;  // stores nothing: no durability, nothing to settle
    EXPECT_FALSE(f.settle.empty()) << f.name;
    for (Durability d : {Durability::kNone, Durability::kNormal, Durability::kFull}) {
      const DurabilityMapping& m = f.durability[DurabilityIndex(d)];
      const bool refused = RefusedDurability(f, d) != nullptr;
      EXPECT_EQ(m.meaning.empty(), refused) << f.name << " at " << DurabilityName(d)
                                            << (refused ? ": refused, but a mapping is declared" : ": not declared");
      EXPECT_EQ(m.settings.empty(), refused) << f.name << " at " << DurabilityName(d);
    }
  }
}

// `text` as the sheet's Markdown cells hold it.
std::string Cell(std::string text) {
  for (size_t i = text.find('|'); i != std::string::npos; i = text.find('|', i + 2)) text.insert(i, 1, '\\');
  return text;
}

TEST(EngineRegistry, ListPrintsEachEnginesDeclarations) {
  for (const AdapterFactory& f : BuiltinAdapters().factories()) {
    std::ostringstream out;
    const CommandResult result = RunList({f.name}, out);
    ASSERT_EQ(result.exit_code, kExitCodeSuccess) << result.error;
    const std::string sheet = out.str();
    EXPECT_NE(sheet.find("## " + f.name + " — "), std::string::npos) << sheet;
    for (const NativeOption& o : f.native_options)
      EXPECT_NE(sheet.find("| `" + o.key + "` | " + Cell(o.values) + " | " + Cell(o.default_value) + " |"),
                std::string::npos)
          << sheet;
    if (f.name == "null") continue;
    for (Durability d : {Durability::kNone, Durability::kNormal, Durability::kFull}) {
      const std::string row = "| `" + std::string(DurabilityName(d)) + "` | ";
      const std::string* why = RefusedDurability(f, d);
      const std::string want =
          why ? row + "refused: " + Cell(*why) : row + Cell(f.durability[DurabilityIndex(d)].meaning) + " | ";
      EXPECT_NE(sheet.find(want), std::string::npos) << want << "\n" << sheet;
    }
    EXPECT_NE(sheet.find("Settle: " + f.settle + "."), std::string::npos) << sheet;
  }
}

TEST(EngineRegistry, ListOfAnUnknownEngineIsBadInput) {
  std::ostringstream out;
  const CommandResult result = RunList({"dbx,nosuch"}, out);
  EXPECT_EQ(result.exit_code, kExitCodeBadInput);
  EXPECT_NE(result.error.find("'nosuch'"), std::string::npos) << result.error;
  EXPECT_EQ(out.str(), "") << "nothing is printed before the names are checked";
}

}  // namespace
}  // namespace dbxb
