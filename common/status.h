// Status and Result<T>: the one way errors come back from adapters, workloads, reports and the harness.
//
// NotFound is a normal result (a Get of an absent key), not an error. An OK Status is one null pointer: making,
// testing, returning and destroying it costs what a pointer does, which every operation of a session pays.
#pragma once

#include <cassert>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace dbxb {

class [[nodiscard]] Status {
 public:
  enum class Code {
    kOk,
    kNotFound,
    kInvalidArgument,
    kIOError,
    kCorruption,
    kConflict,
    kNotSupported,
    kInternal,
    kInterrupted
  };

  Status() = default;
  Status(const Status& other) : rep_(other.rep_ ? std::make_unique<Rep>(*other.rep_) : nullptr) {}
  Status& operator=(const Status& other) {
    if (this != &other) rep_ = other.rep_ ? std::make_unique<Rep>(*other.rep_) : nullptr;
    return *this;
  }
  Status(Status&&) noexcept = default;  // leaves the moved-from Status OK
  Status& operator=(Status&&) noexcept = default;
  ~Status() = default;

  static Status Ok() { return Status(); }
  static Status NotFound(std::string_view msg = {}) { return Status(Code::kNotFound, msg); }
  static Status InvalidArgument(std::string_view msg) { return Status(Code::kInvalidArgument, msg); }
  static Status IOError(std::string_view msg) { return Status(Code::kIOError, msg); }
  static Status Corruption(std::string_view msg) { return Status(Code::kCorruption, msg); }
  static Status Conflict(std::string_view msg) { return Status(Code::kConflict, msg); }
  static Status NotSupported(std::string_view msg) { return Status(Code::kNotSupported, msg); }
  static Status Internal(std::string_view msg) { return Status(Code::kInternal, msg); }
  /// The user asked the run to stop (SIGINT/SIGTERM); not a failure of what was measured.
  static Status Interrupted(std::string_view msg = {}) { return Status(Code::kInterrupted, msg); }

  bool ok() const { return rep_ == nullptr; }
  bool IsNotFound() const { return code() == Code::kNotFound; }
  bool IsInvalidArgument() const { return code() == Code::kInvalidArgument; }
  bool IsIOError() const { return code() == Code::kIOError; }
  bool IsCorruption() const { return code() == Code::kCorruption; }
  bool IsConflict() const { return code() == Code::kConflict; }
  bool IsNotSupported() const { return code() == Code::kNotSupported; }
  bool IsInterrupted() const { return code() == Code::kInterrupted; }
  Code code() const { return rep_ ? rep_->code : Code::kOk; }
  const std::string& message() const {
    static const std::string kEmpty;
    return rep_ ? rep_->message : kEmpty;
  }

  /// "NotFound: key_00000001" style text for logs and result files.
  std::string ToString() const {
    if (ok()) return "OK";
    std::string s(CodeName(rep_->code));
    if (!rep_->message.empty()) s += ": " + rep_->message;
    return s;
  }

  /// Returns this status with `context` prepended to the message (e.g. the file name).
  Status WithContext(std::string_view context) const {
    if (ok()) return *this;
    std::string m(context);
    if (!rep_->message.empty()) m += ": " + rep_->message;
    return Status(rep_->code, m);
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
      case Code::kInternal:
        return "Internal";
      case Code::kInterrupted:
        return "Interrupted";
    }
    return "Unknown";
  }

 private:
  struct Rep {
    Code code;
    std::string message;
  };
  // REQUIRES: code != kOk (an OK Status has no Rep). Every factory above passes a failure code.
  Status(Code code, std::string_view msg) : rep_(std::make_unique<Rep>(Rep{code, std::string(msg)})) {}
  std::unique_ptr<Rep> rep_;  // null when OK
};

/// A value or a non-OK Status. REQUIRES: the Status passed in is not OK.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}                                              // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) { assert(!std::get<Status>(v_).ok()); }  // NOLINT

  bool ok() const { return std::holds_alternative<T>(v_); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(v_);
  }
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T* operator->() { return &value(); }
  T& operator*() { return value(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace dbxb

/// Returns early from the enclosing function when `expr` yields a non-OK Status.
#define DBXB_RETURN_IF_ERROR(expr) \
  do {                             \
    ::dbxb::Status _st = (expr);   \
    if (!_st.ok()) return _st;     \
  } while (0)
