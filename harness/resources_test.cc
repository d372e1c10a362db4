// harness/resources.h and harness/sync_interpose.cc: exact sync counts through a shared library, the
// arithmetic of the figures, and the phase runner's measured-part boundaries.
#include "harness/resources.h"

#include <gtest/gtest.h>
#include <linux/magic.h>
#include <sys/statfs.h>

#include <atomic>
#include <filesystem>
#include <string>

#include "harness/phase_runner.h"
#include "harness/testdata/sync_caller.h"

namespace dbxb {
namespace {

namespace fs = std::filesystem;

fs::path ScratchDir() { return fs::temp_directory_path() / ("dbxb-resources-test-" + std::to_string(getpid())); }

std::string ScratchFile(const std::string& name) {
  fs::create_directories(ScratchDir());
  return (ScratchDir() / name).string();
}

class RemoveScratch final : public ::testing::Environment {
 public:
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(ScratchDir(), ec);
  }
};
const auto* const kRemoveScratch = ::testing::AddGlobalTestEnvironment(new RemoveScratch);

bool OnTmpfs(const std::string& path) {
  struct statfs st;
  return statfs(fs::path(path).parent_path().c_str(), &st) == 0 && st.f_type == TMPFS_MAGIC;
}

TEST(SyncInterpose, IsActiveInThisExecutable) { EXPECT_TRUE(CountedSyncCalls().has_value()); }

TEST(SyncInterpose, SeesExactlyTheSyncsOfASharedLibrary) {
  const std::string path = ScratchFile("exact");
  for (int syncs : {0, 1, 4, 7}) {
    const size_t bytes = 3 * 4096 + 100 * static_cast<size_t>(syncs);
    const ResourceSnapshot before = ReadResourceSnapshot();
    ASSERT_EQ(dbxb_test_write_and_sync(path.c_str(), bytes, syncs), 0) << path;
    const ResourceSnapshot after = ReadResourceSnapshot();
    EXPECT_EQ(*after.sync_calls - *before.sync_calls, static_cast<uint64_t>(syncs)) << syncs;
    EXPECT_EQ(after.wchar - before.wchar, bytes) << syncs;
    // Dirtied pages are accounted to the writer when they are dirtied (none on tmpfs).
    if (!OnTmpfs(path)) {
      EXPECT_GE(after.io_write_bytes - before.io_write_bytes, bytes) << syncs;
    }
  }
}

TEST(ResourceMeter, AddsUpItsStretchesAndNothingBetweenThem) {
  const std::string path = ScratchFile("stretches");
  ResourceMeter meter;
  meter.BeginSpan();
  meter.StartStretch();
  ASSERT_EQ(dbxb_test_write_and_sync(path.c_str(), 1000, 3), 0);
  meter.StopStretch();
  ASSERT_EQ(dbxb_test_write_and_sync(path.c_str(), 5000, 5), 0);  // between the stretches: not counted
  meter.StartStretch();
  ASSERT_EQ(dbxb_test_write_and_sync(path.c_str(), 2000, 2), 0);
  meter.StopStretch();
  const ResourceUsage u = meter.Finish(10, WriteTally{5, 100}, 50, 25);
  ASSERT_TRUE(u.fsync_calls.has_value());
  EXPECT_EQ(*u.fsync_calls, 5u);
  EXPECT_EQ(u.wchar, 3000u);
  EXPECT_EQ(u.commits, 5u);
  ASSERT_TRUE(u.fsyncs_per_commit.has_value());
  EXPECT_DOUBLE_EQ(*u.fsyncs_per_commit, 1.0);
  EXPECT_EQ(u.operations, 10u);
  EXPECT_EQ(u.logical_bytes, 100u);
  ASSERT_TRUE(u.write_amplification.has_value());
  EXPECT_DOUBLE_EQ(*u.write_amplification, static_cast<double>(u.io_write_bytes) / 100.0);
  ASSERT_TRUE(u.space_amplification.has_value());
  EXPECT_DOUBLE_EQ(*u.space_amplification, 2.0);
  EXPECT_GT(u.max_rss_bytes, 0u);
  EXPECT_GT(u.anon_rss_bytes, 0u);
}

TEST(MakeResourceUsage, DividesByHandCountedDenominators) {
  ResourceSnapshot spent;
  spent.cpu_user_ns = 3000;
  spent.cpu_sys_ns = 1000;
  spent.io_write_bytes = 8192;
  spent.sync_calls = 6;
  spent.max_rss_bytes = 1 << 20;
  const ResourceUsage u = MakeResourceUsage(spent, true, 4, WriteTally{3, 2048}, 4096, 1024);
  EXPECT_DOUBLE_EQ(u.cpu_ns_per_op, 1000.0);
  EXPECT_DOUBLE_EQ(u.io_write_bytes_per_op, 2048.0);
  EXPECT_DOUBLE_EQ(*u.fsyncs_per_commit, 2.0);
  EXPECT_DOUBLE_EQ(*u.write_amplification, 4.0);
  EXPECT_DOUBLE_EQ(*u.space_amplification, 4.0);
  EXPECT_EQ(u.max_rss_scope, "span");
}

TEST(MakeResourceUsage, LeavesOutRatiosWithoutADenominator) {
  ResourceSnapshot spent;  // no sync count: an executable without the interposer
  const ResourceUsage u = MakeResourceUsage(spent, false, 0, WriteTally{2, 0}, 4096, 0);
  EXPECT_FALSE(u.fsync_calls.has_value());
  EXPECT_FALSE(u.fsyncs_per_commit.has_value());
  EXPECT_FALSE(u.write_amplification.has_value());
  EXPECT_FALSE(u.space_amplification.has_value());
  EXPECT_EQ(u.cpu_ns_per_op, 0.0);
  EXPECT_EQ(u.max_rss_scope, "process");
}

TEST(MakeResourceUsage, AddsTheServersShareToEveryTotalButTheRss) {
  ResourceSnapshot spent;
  spent.cpu_user_ns = 3000;
  spent.io_write_bytes = 100;
  spent.sync_calls = 0;
  spent.max_rss_bytes = 1 << 20;
  ServerResourceUsage server;
  server.cpu_user_ns = 4000;
  server.cpu_sys_ns = 1000;
  server.io_write_bytes = 8092;
  server.pss_bytes = 64 << 20;
  server.fsync_calls = 4;
  const ResourceUsage u = MakeResourceUsage(spent, true, 4, WriteTally{2, 2048}, 4096, 1024, server);
  EXPECT_DOUBLE_EQ(u.cpu_ns_per_op, 2000.0) << "(3000 + 4000 + 1000) / 4";
  EXPECT_EQ(u.io_write_bytes, 8192u);
  EXPECT_DOUBLE_EQ(*u.fsyncs_per_commit, 2.0) << "the server's 4 syncs over 2 commits";
  EXPECT_DOUBLE_EQ(*u.write_amplification, 4.0);
  EXPECT_EQ(u.max_rss_bytes, 1u << 20) << "this process's own; the server's memory is its PSS";
  ASSERT_TRUE(u.server.has_value());
  EXPECT_EQ(*u.server, server);
  // A server whose syncs were not counted leaves the total unknown, not the client's alone.
  server.fsync_calls.reset();
  EXPECT_FALSE(MakeResourceUsage(spent, true, 4, WriteTally{2, 2048}, 4096, 1024, server).fsync_calls.has_value());
}

// Each operation writes 100 bytes and syncs once, as a commit at durability full would.
class SyncingWorker final : public PhaseWorker {
 public:
  explicit SyncingWorker(std::string path) : path_(std::move(path)) {}
  Status NextOp(uint32_t* op) override {
    *op = 0;
    if (dbxb_test_write_and_sync(path_.c_str(), 100, 1) != 0) return Status::IOError("write " + path_);
    ++written_.commits;
    written_.logical_bytes += 100;
    return Status::Ok();
  }
  WriteTally written() const override { return written_; }

 private:
  std::string path_;
  WriteTally written_;
};

class SyncingPhase final : public Phase {
 public:
  SyncingPhase(uint32_t threads, uint64_t operations, uint64_t warmup) {
    spec_.name = "syncing";
    spec_.op_types = {"commit"};
    spec_.threads = threads;
    spec_.operations = operations;
    spec_.warmup_operations = warmup;
  }
  const PhaseSpec& spec() const override { return spec_; }
  Result<std::unique_ptr<PhaseWorker>> NewWorker(uint32_t i) override {
    return std::unique_ptr<PhaseWorker>(new SyncingWorker(ScratchFile("phase-" + std::to_string(i))));
  }

 private:
  PhaseSpec spec_;
};

TEST(PhaseResources, CountTheMeasuredOperationsAndNotTheWarmUp) {
  for (uint32_t threads : {1u, 3u}) {
    SyncingPhase phase(threads, 12, 5);
    PhaseRun run = RunPhase({"test", "", "", "none", {}}, phase);
    ASSERT_FALSE(run.result.error_occurred) << run.result.error_message;
    ASSERT_TRUE(run.result.resources.has_value());
    const ResourceUsage& u = *run.result.resources;
    EXPECT_EQ(u.operations, 12u);
    ASSERT_TRUE(u.fsync_calls.has_value());
    EXPECT_EQ(*u.fsync_calls, 12u) << threads << " threads";
    EXPECT_EQ(u.commits, 12u);
    EXPECT_EQ(u.logical_bytes, 1200u);
    EXPECT_EQ(u.wchar, 1200u);
    EXPECT_DOUBLE_EQ(*u.fsyncs_per_commit, 1.0);
  }
}

}  // namespace
}  // namespace dbxb
