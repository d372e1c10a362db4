// The write-ahead log. A WAL file is a sequence of records:
//   masked crc32c (4) | payload length (4) | payload
// where the CRC covers the length and the payload, and a payload is one encoded WriteBatch (one
// commit). A record is applied entirely or not at all; a torn tail (short header, short payload or
// bad CRC at the end of the newest file) is detected and cut. A bad record followed by a good one
// is not a torn tail but damage: the reader reports the good records after it so that recovery can
// refuse to open instead of silently dropping acknowledged commits.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "dbx/status.h"
#include "src/env.h"

namespace dbx {

constexpr size_t kWalHeader = 8;

/// Appends a framed record holding `payload` to `dst`.
void AppendWalRecord(std::string* dst, std::string_view payload);
/// Appends a framed record holding an encoded batch whose first 8 bytes (the sequence) are replaced
/// by `seq`, without copying the batch first.
void AppendWalBatchRecord(std::string* dst, std::string_view batch_rep, uint64_t seq);

/// Appends to one WAL file. Append is single-threaded (the commit leader); Sync may run concurrently
/// from the background syncer.
class WalWriter {
 public:
  static Status Create(Env* env, const std::string& path, uint64_t number, std::unique_ptr<WalWriter>* out);
  /// Writes already framed records (AppendWalRecord) to the kernel in one write.
  Status AppendFramed(std::string_view framed);
  /// fdatasync.
  Status Sync();
  Status Close();
  uint64_t number() const { return number_; }

 private:
  WalWriter(std::unique_ptr<WritableFile> f, uint64_t number) : file_(std::move(f)), number_(number) {}
  std::unique_ptr<WritableFile> file_;
  uint64_t number_;
};

/// How a WAL read ended.
struct WalReadResult {
  uint64_t records = 0;
  uint64_t valid_bytes = 0;  ///< bytes up to the end of the last good record
  bool torn = false;         ///< bytes after valid_bytes do not form a good record
};

/// Called with the payload of each good record found after the first bad one.
using WalDamageFn = std::function<Status(std::string_view)>;

/// Parses WAL bytes from a buffer: calls fn(payload) per good record, stops at the first bad one
/// (reported through result->torn); then, when after_damage is set, scans the rest for records
/// that are whole and calls after_damage(payload) for each. Returns the first non-OK status of the
/// callbacks. Never reads out of bounds: a fuzzing entry point.
Status ReadWalRecords(std::string_view data, const std::function<Status(std::string_view)>& fn, WalReadResult* result,
                      const WalDamageFn& after_damage = nullptr);
/// ReadWalRecords over a file's contents.
Status ReadWalFile(Env* env, const std::string& path, const std::function<Status(std::string_view)>& fn,
                   WalReadResult* result, const WalDamageFn& after_damage = nullptr);

}  // namespace dbx
