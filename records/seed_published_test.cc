// The seed's published figures as the tool reads them: every row of records/seed_published.csv parsed,
// the summary's figures as the issue and the report print them, and the source named.
#include "records/seed_published.h"

#include <gtest/gtest.h>

namespace dbxb {
namespace {

TEST(SeedPublishedTest, SummaryFiguresAreTheReportsAndEveryRowParses) {
  const auto& rows = SeedPublishedFigures();
  EXPECT_EQ(rows.size(), 45u);  // 12 summary + 12 detailed + 9 claims + 12 v0.0.6 summary
  const struct {
    const char* workload;
    const char* engine;
    double ns;
  } summary[] = {{"insert", "dbx-core", 25.21e6}, {"insert", "sqlite", 29.4e6}, {"insert", "sled", 56.6e6},
                 {"insert", "redb", 54.05e6},     {"get", "dbx-core", 2.84e6},  {"get", "sqlite", 33.8e6},
                 {"get", "sled", 5.88e6},         {"get", "redb", 2.96e6},      {"scan", "dbx-core", 51e3},
                 {"scan", "sqlite", 340e3},       {"scan", "sled", 4.64e6},     {"scan", "redb", 2.08e6}};
  for (const auto& s : summary) {
    const PublishedFigure* f = FindPublished("summary", s.workload, s.engine);
    ASSERT_NE(f, nullptr) << s.workload << " " << s.engine;
    ASSERT_TRUE(f->mean_ns.has_value());
    EXPECT_DOUBLE_EQ(*f->mean_ns, s.ns) << s.workload << " " << s.engine;
    const PublishedFigure* d = FindPublished("detailed", s.workload, s.engine);
    ASSERT_NE(d, nullptr);
    EXPECT_TRUE(d->std_dev_ns.has_value());
  }
  for (const PublishedFigure& f : rows) {
    EXPECT_FALSE(f.printed.empty()) << f.section << " " << f.workload << " " << f.engine;
    if (f.section != "claim") {
      EXPECT_TRUE(f.mean_ns.has_value()) << f.printed;
    }
  }
  EXPECT_EQ(FindPublished("summary", "count", "dbx-core"), nullptr);
  bool names_source = false;
  for (const std::string& line : SeedPublishedSource()) names_source |= line.find("v0.2.0-beta") != std::string::npos;
  EXPECT_TRUE(names_source);
  EXPECT_GE(SeedConditionDifferences().size(), 5u);
}

}  // namespace
}  // namespace dbxb
