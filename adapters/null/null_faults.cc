#include "adapters/null/null_faults.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "adapters/native_options.h"

namespace dbxb {
namespace {

Status ParseWhole(const std::string& key, const std::string& text, uint64_t max, uint64_t* out);

// "A/B": two whole numbers, the second at least 1.
Status ParsePair(const std::string& key, const std::string& value, uint64_t max_first, uint64_t* first,
                 uint64_t* second) {
  const size_t slash = value.find('/');
  if (slash == std::string::npos)
    return Status::InvalidArgument(key + ": '" + value + "' is not two whole numbers A/B");
  DBXB_RETURN_IF_ERROR(ParseWhole(key, value.substr(0, slash), max_first, first));
  DBXB_RETURN_IF_ERROR(ParseWhole(key, value.substr(slash + 1), UINT64_MAX, second));
  if (*second == 0) return Status::InvalidArgument(key + ": '" + value + "': the second number must be at least 1");
  return Status::Ok();
}

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

Status ParseWhole(const std::string& key, const std::string& text, uint64_t max, uint64_t* out) {
  return ParseNativeNumber<uint64_t>(key, text, "a whole number", 0, max, out);
}

}  // namespace

Status NullFaults::Parse(const AdapterOptions& options, NullFaults* out) {
  NullFaults f;
  for (const auto& [key, value] : options.native_options) {
    if (key == kNullSpinKey) {
      DBXB_RETURN_IF_ERROR(ParseWhole(key, value, 1'000'000'000, &f.spin));
    } else if (key == kNullStallKey) {
      DBXB_RETURN_IF_ERROR(ParsePair(key, value, 10'000'000'000, &f.stall_ns, &f.stall_every));
    } else if (key == kNullPauseKey) {
      DBXB_RETURN_IF_ERROR(ParsePair(key, value, 10'000'000'000, &f.pause_ns, &f.pause_period_ns));
    } else if (key == kNullSyncsPerCommitKey) {
      DBXB_RETURN_IF_ERROR(ParseWhole(key, value, 1000, &f.syncs_per_commit));
    }
  }
  *out = f;
  return Status::Ok();
}

Settings NullFaults::Describe() const {
  Settings s;
  if (spin != 0) s.emplace_back("test_fault_spin", std::to_string(spin));
  if (stall_every != 0)
    s.emplace_back("test_fault_stall",
                   std::to_string(stall_ns) + " ns every " + std::to_string(stall_every) + " operations");
  if (pause_period_ns != 0)
    s.emplace_back("test_fault_pause",
                   std::to_string(pause_ns) + " ns every " + std::to_string(pause_period_ns) + " ns of wall time");
  if (syncs_per_commit != 0) s.emplace_back("test_fault_syncs_per_commit", std::to_string(syncs_per_commit));
  return s;
}

FaultInjector::~FaultInjector() {
  if (fd_ >= 0) close(fd_);
}

// A dependent chain of n multiply-adds (about 4 cycles each) the compiler cannot fold away, fenced so that
// out-of-order execution cannot hide it behind the operation's own work: its whole latency is added.
void FaultInjector::Spin(uint64_t n) {
  uint64_t x = n;
#if defined(__x86_64__)
  asm volatile("lfence" ::: "memory");
#endif
  for (uint64_t i = 0; i < n; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    asm volatile("" : "+r"(x));
  }
#if defined(__x86_64__)
  asm volatile("lfence" ::: "memory");
#endif
}

void FaultInjector::Stall(uint64_t ns) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::nanoseconds(ns);
  while (std::chrono::steady_clock::now() < until) {
  }
}

void FaultInjector::MaybePause() {
  const int64_t now = NowNs();
  if (next_pause_ns_ == 0) next_pause_ns_ = now + static_cast<int64_t>(faults_.pause_period_ns);
  if (now < next_pause_ns_) return;
  Stall(faults_.pause_ns);
  next_pause_ns_ = NowNs() + static_cast<int64_t>(faults_.pause_period_ns);
}

Status FaultInjector::OnCommit() {
  if (faults_.syncs_per_commit == 0) return Status::Ok();
  if (fd_ < 0) {
    const std::string path = dir_ + "/null-test-fault.sync";
    fd_ = open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) return Status::IOError("open " + path + ": " + std::strerror(errno));
  }
  const char byte = 0;
  if (pwrite(fd_, &byte, 1, 0) != 1)
    return Status::IOError(std::string("null test fault write: ") + std::strerror(errno));
  for (uint64_t i = 0; i < faults_.syncs_per_commit; ++i)
    if (fsync(fd_) != 0) return Status::IOError(std::string("null test fault fsync: ") + std::strerror(errno));
  return Status::Ok();
}

}  // namespace dbxb
