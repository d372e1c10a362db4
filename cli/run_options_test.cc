// ValidateRunArgs against a registry of test suites: which suite runs, which options it may be given,
// what it records. The built-in suites are covered end to end (tests/bad_input_rows.cc, run_e2e_test.cc).
#include "cli/run_options.h"

#include <gtest/gtest.h>

namespace dbxb {
namespace {

class NoWork final : public SuitePlan {
 public:
  Status Execute(const std::string&, SuiteRunner&) override { return Status::Ok(); }
};

// "alpha" takes --size (a count, default 3); "beta" takes --size and --depth and is implied by --depth.
class TestSuite final : public Suite {
 public:
  TestSuite(std::string name, std::vector<SuiteOption> options, Durability durability)
      : name_(std::move(name)), options_(std::move(options)), durability_(durability) {}
  std::string_view name() const override { return name_; }
  std::string summary() const override { return "test"; }
  std::string quick_summary() const override { return "size 1"; }
  SuiteRecords records() const override { return SuiteRecords::kPhases; }
  Durability default_durability() const override { return durability_; }
  const std::vector<SuiteOption>& options() const override { return options_; }
  bool ImpliedBy(const SuiteArgs& args) const override { return name_ == "beta" && args.Given("depth"); }
  Result<std::unique_ptr<SuitePlan>> Plan(const SuiteArgs& args, const SuiteCommon& common) const override {
    uint64_t size = common.quick ? 1 : 3;
    DBXB_RETURN_IF_ERROR(args.Count("size", 1, 10, &size));
    auto plan = std::make_unique<NoWork>();
    plan->configuration = {{"size", std::to_string(size)}};
    return std::unique_ptr<SuitePlan>(std::move(plan));
  }

 private:
  std::string name_;
  std::vector<SuiteOption> options_;
  Durability durability_;
};

class RunOptionsTest : public testing::Test {
 protected:
  RunOptionsTest() {
    suites_.Register(
        std::make_unique<TestSuite>("alpha", std::vector<SuiteOption>{{"size", "Size", "3"}}, Durability::kNone));
    suites_.Register(std::make_unique<TestSuite>(
        "beta", std::vector<SuiteOption>{{"size", "Size", "3"}, {"depth", "Depth", "1"}}, Durability::kFull));
    args_.engines = "null";
  }
  Status Validate() { return ValidateRunArgs(args_, BuiltinAdapters(), suites_, &plan_); }
  std::string Config(const std::string& key) const {
    for (const auto& [k, v] : plan_.configuration)
      if (k == key) return v;
    return "<absent>";
  }

  SuiteRegistry suites_;
  RunArgs args_;
  RunPlan plan_;
};

TEST_F(RunOptionsTest, TheFirstRegisteredSuiteIsTheDefaultAndItsDefaultsApply) {
  ASSERT_TRUE(Validate().ok());
  EXPECT_EQ(plan_.suite->name(), "alpha");
  EXPECT_EQ(plan_.common.durability, Durability::kNone);
  EXPECT_EQ(Config("suite"), "alpha");
  EXPECT_EQ(Config("engines"), "null");
  EXPECT_EQ(Config("size"), "3");
  EXPECT_EQ(Config("durability"), "none");
  args_.quick = true;
  ASSERT_TRUE(Validate().ok());
  EXPECT_EQ(Config("size"), "1");
}

TEST_F(RunOptionsTest, AnOptionImpliesItsSuiteAndSuiteNamesOne) {
  args_.suite_options["depth"] = "2";
  ASSERT_TRUE(Validate().ok());
  EXPECT_EQ(plan_.suite->name(), "beta");
  EXPECT_EQ(plan_.common.durability, Durability::kFull);
  args_.suite_options.clear();
  args_.suite = "beta";
  ASSERT_TRUE(Validate().ok());
  EXPECT_EQ(plan_.suite->name(), "beta");
}

TEST_F(RunOptionsTest, UnknownSuitesAndForeignOptionsAreRefusedByName) {
  args_.suite = "gamma";
  Status st = Validate();
  ASSERT_TRUE(st.IsInvalidArgument());
  EXPECT_EQ(st.message(), "--suite: unknown suite 'gamma' (known: alpha, beta)");
  args_.suite = "alpha";
  args_.suite_options["depth"] = "2";
  st = Validate();
  ASSERT_TRUE(st.IsInvalidArgument());
  EXPECT_EQ(st.message(), "--depth: applies to the suite beta only, not to suite alpha");
}

TEST_F(RunOptionsTest, TheSuitesOwnValidationIsOneLine) {
  args_.suite_options["size"] = "11";
  Status st = Validate();
  ASSERT_TRUE(st.IsInvalidArgument());
  EXPECT_EQ(st.message(), "--size: '11' is out of range (1 to 10)");
  args_.suite_options["size"] = "x";
  st = Validate();
  ASSERT_TRUE(st.IsInvalidArgument());
  EXPECT_EQ(st.message().rfind("--size: ", 0), 0u) << st.message();
}

TEST_F(RunOptionsTest, EngineOptionsReachTheSuiteInOrderAndAreRecorded) {
  args_.engines = "dbx,sqlite";
  args_.engine_options = {"sqlite.layout=rowid", "dbx.release_freed_memory=off", "sqlite.layout=without-rowid"};
  ASSERT_TRUE(Validate().ok());
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"sqlite.layout", "rowid"}, {"dbx.release_freed_memory", "off"}, {"sqlite.layout", "without-rowid"}};
  EXPECT_EQ(plan_.common.native_options, expected);
  EXPECT_EQ(Config("engine_options"), "sqlite.layout=rowid, dbx.release_freed_memory=off, sqlite.layout=without-rowid");
  EXPECT_TRUE(plan_.warnings.empty());
}

TEST_F(RunOptionsTest, AnEngineOptionForAnEngineNotInTheRunIsAWarning) {
  args_.engines = "dbx";
  args_.engine_options = {"lmdb.readahead=off"};
  ASSERT_TRUE(Validate().ok());
  ASSERT_EQ(plan_.warnings.size(), 1u);
  EXPECT_EQ(plan_.warnings[0],
            "--engine-option lmdb.readahead=off: lmdb is not among --engines; the setting is unused");
}

TEST_F(RunOptionsTest, BadEngineOptionsAreRefusedByName) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"sqlite.layout", "--engine-option: 'sqlite.layout' is not KEY=VALUE"},
      {"layout=rowid", "--engine-option: 'layout=rowid' does not name an engine (expected <engine>.<setting>=VALUE)"},
      {"mongo.x=1", "--engine-option: 'mongo.x=1': unknown engine 'mongo'"},
      {"null.x=1", "--engine-option: 'null.x=1': null has no setting 'null.x' (it takes none)"},
      {"dbx.release_freed_memory=yes", "--engine-option: dbx.release_freed_memory: expected on or off, got 'yes'"},
      {"sqlite.layout=heap", "--engine-option: sqlite.layout: expected without-rowid or rowid, got 'heap'"},
  };
  for (const auto& [given, message] : cases) {
    args_.engine_options = {given};
    Status st = Validate();
    ASSERT_TRUE(st.IsInvalidArgument()) << given;
    EXPECT_EQ(st.message(), message);
  }
}

}  // namespace
}  // namespace dbxb
