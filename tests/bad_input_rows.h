// The table of bad_input_test.cc: one row per bad input (see the placeholders documented there).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace dbxb::test {

struct BadInputRow {
  std::string name;   ///< the test's name: letters, digits and underscores
  std::string args;   ///< the command line after `dbx-bench`, with placeholders
  std::string names;  ///< what the one line on stderr must contain (the input it is about)
  std::string env;    ///< "NAME=VALUE" (with placeholders) set for the tool only; "" = none
};

/// For GoogleTest's messages.
inline void PrintTo(const BadInputRow& row, std::ostream* os) { *os << row.name << ": dbx-bench " << row.args; }

/// Every bad-input case: args, the substring the one stderr line must name.
std::vector<BadInputRow> BadInputRows();

}  // namespace dbxb::test
