#include "common/status.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace dbxb {
namespace {

TEST(StatusTest, OkHasNoCodeNorMessage) {
  Status s = Status::Ok();
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.code(), Status::Code::kOk);
  EXPECT_EQ(s.message(), "");
  EXPECT_EQ(s.ToString(), "OK");
  EXPECT_TRUE(Status().ok());
  // An OK status is one pointer: what every operation of a session returns.
  EXPECT_EQ(sizeof(Status), sizeof(void*));
}

TEST(StatusTest, EveryFactoryKeepsItsCodeAndMessage) {
  const std::pair<Status, Status::Code> cases[] = {
      {Status::NotFound("k"), Status::Code::kNotFound}, {Status::InvalidArgument("k"), Status::Code::kInvalidArgument},
      {Status::IOError("k"), Status::Code::kIOError},   {Status::Corruption("k"), Status::Code::kCorruption},
      {Status::Conflict("k"), Status::Code::kConflict}, {Status::NotSupported("k"), Status::Code::kNotSupported},
      {Status::Internal("k"), Status::Code::kInternal}, {Status::Interrupted("k"), Status::Code::kInterrupted},
  };
  for (const auto& [s, code] : cases) {
    EXPECT_FALSE(s.ok());
    EXPECT_EQ(s.code(), code);
    EXPECT_EQ(s.message(), "k");
    EXPECT_EQ(s.ToString(), std::string(Status::CodeName(code)) + ": k");
  }
  EXPECT_TRUE(Status::NotFound().IsNotFound());
  EXPECT_EQ(Status::NotFound().ToString(), "NotFound");
}

TEST(StatusTest, CopiesAreIndependentAndMovesLeaveOk) {
  Status a = Status::Corruption("row 7");
  Status b = a;  // a deep copy: changing or destroying one leaves the other
  a = Status::Ok();
  EXPECT_TRUE(a.ok());
  ASSERT_TRUE(b.IsCorruption());
  EXPECT_EQ(b.message(), "row 7");

  Status c;
  c = b;
  EXPECT_EQ(c.ToString(), "Corruption: row 7");

  Status d = std::move(c);
  EXPECT_EQ(d.ToString(), "Corruption: row 7");
  EXPECT_TRUE(c.ok());  // NOLINT(bugprone-use-after-move): a moved-from Status is OK by contract
  b = Status::Ok();
  d = b;
  EXPECT_TRUE(d.ok());
}

TEST(StatusTest, WithContextPrependsToFailuresOnly) {
  EXPECT_TRUE(Status::Ok().WithContext("file.json").ok());
  EXPECT_EQ(Status::IOError("no space").WithContext("out.json").ToString(), "IOError: out.json: no space");
  EXPECT_EQ(Status::NotFound().WithContext("key_1").ToString(), "NotFound: key_1");
}

}  // namespace
}  // namespace dbxb
