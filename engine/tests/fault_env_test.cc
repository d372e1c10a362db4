// The fault-injecting Env itself: what a power loss keeps and drops, and how injected errors fire.
#include "src/fault_env.h"

#include <gtest/gtest.h>

namespace dbx {
namespace {

std::string Read(Env* env, const std::string& path) {
  std::string s;
  Status st = env->ReadFileToString(path, &s);
  return st.ok() ? s : "<" + st.ToString() + ">";
}

class FaultEnvTest : public ::testing::Test {
 protected:
  void SetUp() override {
    bool created = false;
    ASSERT_TRUE(env_.CreateDirIfMissing(dir_, &created).ok());
    ASSERT_TRUE(created);
    ASSERT_TRUE(env_.SyncDir("/fault").ok());
  }
  Status WriteFile(const std::string& name, const std::string& data, bool sync) {
    std::unique_ptr<WritableFile> f;
    DBX_RETURN_IF_ERROR(env_.NewWritableFile(dir_ + "/" + name, &f));
    DBX_RETURN_IF_ERROR(f->Append(data));
    return sync ? f->Sync() : f->Close();
  }
  FaultEnv env_;
  const std::string dir_ = "/fault/db";
};

TEST_F(FaultEnvTest, PowerLossKeepsOnlySyncedBytesUnderSyncedNames) {
  std::unique_ptr<WritableFile> f;
  ASSERT_TRUE(env_.NewWritableFile(dir_ + "/a", &f).ok());
  ASSERT_TRUE(f->Append("durable").ok());
  ASSERT_TRUE(f->Sync().ok());
  ASSERT_TRUE(env_.SyncDir(dir_).ok());
  ASSERT_TRUE(f->Append("-lost").ok());
  ASSERT_TRUE(f->Flush().ok());
  ASSERT_TRUE(WriteFile("b", "synced data, unsynced name", true).ok());
  EXPECT_EQ(Read(&env_, dir_ + "/a"), "durable-lost");
  env_.PowerLoss();
  EXPECT_EQ(Read(&env_, dir_ + "/a"), "durable");
  EXPECT_FALSE(env_.FileExists(dir_ + "/b"));
}

TEST_F(FaultEnvTest, UnsyncedRemovesAndRenamesAreUndone) {
  ASSERT_TRUE(WriteFile("old", "old contents", true).ok());
  ASSERT_TRUE(WriteFile("MANIFEST", "v1", true).ok());
  ASSERT_TRUE(env_.SyncDir(dir_).ok());
  ASSERT_TRUE(env_.RemoveFile(dir_ + "/old").ok());
  ASSERT_TRUE(WriteFile("MANIFEST.tmp", "v2", true).ok());
  ASSERT_TRUE(env_.RenameFile(dir_ + "/MANIFEST.tmp", dir_ + "/MANIFEST").ok());
  EXPECT_FALSE(env_.FileExists(dir_ + "/old"));
  EXPECT_EQ(Read(&env_, dir_ + "/MANIFEST"), "v2");
  env_.PowerLoss();
  EXPECT_EQ(Read(&env_, dir_ + "/old"), "old contents") << "a removed file comes back";
  EXPECT_EQ(Read(&env_, dir_ + "/MANIFEST"), "v1");
  EXPECT_FALSE(env_.FileExists(dir_ + "/MANIFEST.tmp"));
  ASSERT_TRUE(env_.ReplaceFileAtomically(dir_, "MANIFEST", "v3").ok());
  env_.PowerLoss();
  EXPECT_EQ(Read(&env_, dir_ + "/MANIFEST"), "v3");
}

TEST_F(FaultEnvTest, ADirectoryNeverSyncedInItsParentVanishesWhole) {
  bool created = false;
  ASSERT_TRUE(env_.CreateDirIfMissing(dir_ + "/sub", &created).ok());
  std::unique_ptr<WritableFile> f;
  ASSERT_TRUE(env_.NewWritableFile(dir_ + "/sub/x", &f).ok());
  ASSERT_TRUE(f->Append("data").ok());
  ASSERT_TRUE(f->Sync().ok());
  ASSERT_TRUE(env_.SyncDir(dir_ + "/sub").ok());
  env_.PowerLoss();
  EXPECT_FALSE(env_.FileExists(dir_ + "/sub"));
  EXPECT_FALSE(env_.FileExists(dir_ + "/sub/x"));
}

TEST_F(FaultEnvTest, FailNthFiresOnceOnTheNthMatchingOperation) {
  env_.FailNth(FaultOp::kSync, 2, FaultKind::kEIO, ".wal");
  ASSERT_TRUE(WriteFile("1.seg", "x", true).ok());  // not matching
  ASSERT_TRUE(WriteFile("2.wal", "x", true).ok());
  Status s = WriteFile("3.wal", "x", true);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(s.ToString().find("Input/output error"), std::string::npos) << s.ToString();
  EXPECT_TRUE(WriteFile("4.wal", "x", true).ok()) << "one-shot";
  EXPECT_EQ(env_.faults_fired(), 1u);
}

TEST_F(FaultEnvTest, AShortWriteLeavesHalfTheBytes) {
  env_.FailNth(FaultOp::kWrite, 1, FaultKind::kShortWrite);
  std::unique_ptr<WritableFile> f;
  ASSERT_TRUE(env_.NewWritableFile(dir_ + "/f", &f).ok());
  ASSERT_TRUE(f->Append("0123456789").ok());  // buffered
  Status s = f->Flush();
  EXPECT_TRUE(s.IsIOError());
  EXPECT_NE(s.ToString().find("short write"), std::string::npos) << s.ToString();
  EXPECT_EQ(Read(&env_, dir_ + "/f"), "01234");
}

TEST_F(FaultEnvTest, DiskFullFailsWritesAndCreatesUntilCleared) {
  env_.SetDiskFull(true);
  Status s = WriteFile("a", "x", true);
  EXPECT_NE(s.ToString().find("No space left"), std::string::npos) << s.ToString();
  env_.SetDiskFull(false);
  EXPECT_TRUE(WriteFile("a", "x", true).ok());
}

TEST_F(FaultEnvTest, ACutStopsEveryLaterOperationAndChangesNothing) {
  ASSERT_TRUE(WriteFile("a", "kept", true).ok());
  ASSERT_TRUE(env_.SyncDir(dir_).ok());
  env_.CutPowerAfter(2);
  std::unique_ptr<WritableFile> f;
  ASSERT_TRUE(env_.NewWritableFile(dir_ + "/b", &f).ok());  // operation 1
  ASSERT_TRUE(f->Append("never").ok());
  EXPECT_FALSE(f->Sync().ok());  // operation 2: the cut
  EXPECT_TRUE(env_.power_cut());
  EXPECT_EQ(env_.cut_at(), "write b");
  EXPECT_FALSE(env_.SyncDir(dir_).ok());
  f.reset();
  env_.PowerLoss();
  EXPECT_FALSE(env_.power_cut());
  EXPECT_EQ(Read(&env_, dir_ + "/a"), "kept");
  EXPECT_FALSE(env_.FileExists(dir_ + "/b"));
}

TEST_F(FaultEnvTest, DurableMarkNeedsTheSyncAndTheName) {
  uint64_t acked = 7;
  env_.SetSyncMarker(".wal", [&] { return acked; });
  std::unique_ptr<WritableFile> f;
  ASSERT_TRUE(env_.NewWritableFile(dir_ + "/1.wal", &f).ok());
  ASSERT_TRUE(f->Append("r").ok());
  ASSERT_TRUE(f->Sync().ok());
  EXPECT_EQ(env_.DurableMark(), 0u) << "the file's name is not durable yet";
  acked = 9;
  ASSERT_TRUE(env_.SyncDir(dir_).ok());
  EXPECT_EQ(env_.DurableMark(), 7u) << "the mark sampled at the sync, made durable by the directory sync";
  ASSERT_TRUE(f->Sync().ok());
  EXPECT_EQ(env_.DurableMark(), 9u);
}

}  // namespace
}  // namespace dbx
