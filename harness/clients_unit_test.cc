// harness/clients.h and harness/client_barrier.h without processes: the clients' arguments, the run's
// error from how its clients ended, and the barrier's answers (go, abort, a parent gone, an interrupt).
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

#include "harness/client_barrier.h"
#include "harness/clients.h"
#include "harness/signal_handlers.h"

namespace dbxb {
namespace {

// With many clients on one server, the first to fail (too many connections) can take the others with it
// (the schema it created is dropped): the run reports the failure that came first, not the lowest client's.
TEST(FirstClientFailureTest, TheFailureThatCameFirstIsTheCause) {
  std::vector<ClientEnd> ends(3);
  ends[0] = {"ycsb/workloadc/run/postgres failed: relation \"kv\" does not exist", 1, "", 2};
  ends[1] = {"", 130, "dbx-bench: interrupted", 0};
  ends[2] = {"ycsb/workloadc/load/postgres failed: sorry, too many clients already", 1, "", 1};
  const Status st = FirstClientFailure(ends);
  EXPECT_TRUE(st.IsIOError()) << st.ToString();
  EXPECT_EQ(st.message(), "client 3 of 3: ycsb/workloadc/load/postgres failed: sorry, too many clients already");
}

TEST(FirstClientFailureTest, AnExitIsAFailureUnlessInterruptedAndBadInputStaysBadInput) {
  std::vector<ClientEnd> ends(2);
  ends[0] = {"", 130, "dbx-bench: interrupted", 0};
  EXPECT_TRUE(FirstClientFailure(ends).ok());
  ends[1] = {"", 2, "dbx-bench: --records: too few", 1};
  const Status st = FirstClientFailure(ends);
  EXPECT_TRUE(st.IsInvalidArgument()) << st.ToString();
  EXPECT_EQ(st.message(), "client 2 of 2 failed (exit 2): --records: too few");
}

TEST(ClientArgumentsTest, TheParentsOptionsAndReplacedEngineOptionsAreLeftOut) {
  const std::vector<std::string> given = {"--workload",
                                          "w",
                                          "--clients=2",
                                          "--out",
                                          "o",
                                          "--format",
                                          "json,md",
                                          "--engine-option",
                                          "postgres.listen=tcp",
                                          "--engine-option=sqlite.layout=rowid",
                                          "--threads",
                                          "4",
                                          "--data-dir=/d",
                                          "--seed",
                                          "7",
                                          "--hdr-log",
                                          "h",
                                          "--save-baseline",
                                          "b",
                                          "--engines",
                                          "postgres,sqlite"};
  const std::vector<std::string> want = {
      "--workload", "w", "--engine-option=sqlite.layout=rowid", "--threads", "4", "--engines", "postgres,sqlite"};
  EXPECT_EQ(ClientArguments(given, {"postgres.listen", "postgres.url"}), want);
}

class ClientBarrierTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, fds_), 0);
    SetInterruptRequestedForTesting(false);
  }
  void TearDown() override {
    close(fds_[0]);
    if (fds_[1] >= 0) close(fds_[1]);
    SetInterruptRequestedForTesting(false);
  }
  std::string ReadLine() {
    std::string line;
    char c = 0;
    while (read(fds_[1], &c, 1) == 1 && c != '\n') line += c;
    return line;
  }
  int fds_[2];
};

TEST_F(ClientBarrierTest, GoLetsTheClientOnAndAbortStopsIt) {
  ClientBarrier barrier(fds_[0]);
  std::thread parent([&] {
    EXPECT_EQ(ReadLine(), "wait phase one");
    (void)!write(fds_[1], "go\n", 3);
    EXPECT_EQ(ReadLine(), "wait phase two");
    (void)!write(fds_[1], "abort\n", 6);
  });
  EXPECT_TRUE(barrier.Wait("phase one").ok());
  EXPECT_FALSE(InterruptRequested());
  Status st = barrier.Wait("phase two");
  parent.join();
  EXPECT_TRUE(st.IsInterrupted()) << st.ToString();
  EXPECT_TRUE(InterruptRequested()) << "the client stops as at a first Ctrl-C";
}

TEST_F(ClientBarrierTest, AParentThatIsGoneStopsTheClient) {
  ClientBarrier barrier(fds_[0]);
  close(fds_[1]);
  fds_[1] = -1;
  EXPECT_TRUE(barrier.Wait("x").IsInterrupted());
  EXPECT_TRUE(InterruptRequested());
}

TEST_F(ClientBarrierTest, AnInterruptEndsTheWait) {
  ClientBarrier barrier(fds_[0]);
  std::thread later([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    RequestInterrupt();
  });
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(barrier.Wait("x").IsInterrupted());
  later.join();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  EXPECT_EQ(ReadLine(), "wait x");
}

TEST_F(ClientBarrierTest, AFailureIsOneLine) {
  ClientBarrier barrier(fds_[0]);
  barrier.Fail("phase x failed: two\nlines");
  EXPECT_EQ(ReadLine(), "fail phase x failed: two lines");
}

}  // namespace
}  // namespace dbxb
