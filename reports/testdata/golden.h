// Golden-file comparison for the reporter tests.
//
// To regenerate every golden file after an intended change of output, run the tests with
// DBXB_UPDATE_GOLDEN=1, e.g.
//   DBXB_UPDATE_GOLDEN=1 build/reports/reporters_test
// then review `git diff reports/testdata/` before committing: the diff is the change users will see.
#pragma once

#include <string>

namespace dbxb::testdata {

/// Absolute path of reports/testdata/<name> in the source tree.
std::string TestdataPath(const std::string& name);

/// Compares `actual` byte for byte with reports/testdata/<name> (a gtest failure naming the first
/// differing line if not equal), or rewrites that file when DBXB_UPDATE_GOLDEN=1.
void ExpectMatchesGolden(const std::string& name, const std::string& actual);

}  // namespace dbxb::testdata
