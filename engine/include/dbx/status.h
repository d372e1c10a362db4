// dbx::Status: the one way the DBX engine reports errors. NotFound is a normal result (a Get of an
// absent key); Conflict is what the loser of a write-write race gets from Transaction::Commit.
// A Status is cheap to copy when OK. Thread-compatible.
#pragma once

#include <string>
#include <string_view>

namespace dbx {

class [[nodiscard]] Status {
 public:
  enum class Code { kOk, kNotFound, kInvalidArgument, kIOError, kCorruption, kConflict, kNotSupported, kBusy };

  Status() = default;
  static Status Ok() { return Status(); }
  static Status NotFound(std::string_view msg = {}) { return Status(Code::kNotFound, msg); }
  static Status InvalidArgument(std::string_view msg) { return Status(Code::kInvalidArgument, msg); }
  static Status IOError(std::string_view msg) { return Status(Code::kIOError, msg); }
  static Status Corruption(std::string_view msg) { return Status(Code::kCorruption, msg); }
  static Status Conflict(std::string_view msg) { return Status(Code::kConflict, msg); }
  static Status NotSupported(std::string_view msg) { return Status(Code::kNotSupported, msg); }
  /// The database directory is locked by another open instance.
  static Status Busy(std::string_view msg) { return Status(Code::kBusy, msg); }

  bool ok() const { return code_ == Code::kOk; }
  bool IsNotFound() const { return code_ == Code::kNotFound; }
  bool IsInvalidArgument() const { return code_ == Code::kInvalidArgument; }
  bool IsIOError() const { return code_ == Code::kIOError; }
  bool IsCorruption() const { return code_ == Code::kCorruption; }
  bool IsConflict() const { return code_ == Code::kConflict; }
  bool IsNotSupported() const { return code_ == Code::kNotSupported; }
  bool IsBusy() const { return code_ == Code::kBusy; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }

  /// "Corruption: segment 000012.seg: bad block checksum" style text.
  std::string ToString() const {
    if (ok()) return "OK";
    std::string s(CodeName(code_));
    if (!message_.empty()) s += ": " + message_;
    return s;
  }

  static const char* CodeName(Code c) {
    switch (c) {
      case Code::kOk:
        return "OK";
      case Code::kNotFound:
        return "NotFound";
      case Code::kInvalidArgument:
        return "InvalidArgument";
      case Code::kIOError:
        return "IOError";
      case Code::kCorruption:
        return "Corruption";
      case Code::kConflict:
        return "Conflict";
      case Code::kNotSupported:
        return "NotSupported";
      case Code::kBusy:
        return "Busy";
    }
    return "Unknown";
  }

 private:
  Status(Code code, std::string_view msg) : code_(code), message_(msg) {}
  Code code_ = Code::kOk;
  std::string message_;
};

}  // namespace dbx

/// Returns early from the enclosing function when `expr` yields a non-OK dbx::Status.
#define DBX_RETURN_IF_ERROR(expr)      \
  do {                                 \
    ::dbx::Status _dbx_st = (expr);    \
    if (!_dbx_st.ok()) return _dbx_st; \
  } while (0)
