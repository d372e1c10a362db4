#include "reports/testdata/golden.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

namespace dbxb::testdata {
namespace {

std::string LineAt(const std::string& text, size_t line) {
  std::istringstream in(text);
  std::string s;
  for (size_t i = 0; i <= line; ++i) {
    if (!std::getline(in, s)) return "<end of file>";
  }
  return s;
}

}  // namespace

std::string TestdataPath(const std::string& name) { return std::string(DBXB_REPORTS_TESTDATA_DIR) + "/" + name; }

void ExpectMatchesGolden(const std::string& name, const std::string& actual) {
  std::string path = TestdataPath(name);
  const char* update = std::getenv("DBXB_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << actual;
    ASSERT_TRUE(out.good()) << "could not write " << path;
    std::cerr << "updated golden file " << path << "\n";
    return;
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in.good()) << "missing golden file " << path << " (run with DBXB_UPDATE_GOLDEN=1 to create it)";
  std::stringstream buf;
  buf << in.rdbuf();
  std::string expected = buf.str();
  if (expected == actual) return;
  size_t pos = 0;
  while (pos < expected.size() && pos < actual.size() && expected[pos] == actual[pos]) ++pos;
  size_t line = static_cast<size_t>(std::count(actual.begin(), actual.begin() + pos, '\n'));
  ADD_FAILURE() << "output differs from golden file " << path << " at line " << line + 1 << ":\n"
                << "  expected: " << LineAt(expected, line) << "\n"
                << "  actual:   " << LineAt(actual, line) << "\n"
                << "If the change is intended, rerun with DBXB_UPDATE_GOLDEN=1 and review the diff.";
}

}  // namespace dbxb::testdata
