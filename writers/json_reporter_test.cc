#include "writers/json_reporter.h"

#include <gtest/gtest.h>

#include <sstream>

#include "records/json_results.h"
#include "tests/fixtures/sample_results.h"

namespace dbxb {
namespace {

TEST(JsonReporter, WritesTheSameDocument) {
  std::ostringstream out;
  JsonReporter reporter;
  ASSERT_TRUE(reporter.Write(testdata::SampleRunResults(), out).ok());
  EXPECT_EQ(out.str(), SerializeResults(testdata::SampleRunResults()));
}

}  // namespace
}  // namespace dbxb
