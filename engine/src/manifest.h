// The manifest names the live segment files. It is replaced atomically (write temp, fsync, rename,
// fsync directory), so a crash during a flush or compaction leaves either the old or the new set:
// data is never lost or duplicated.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "dbx/status.h"
#include "src/env.h"

namespace dbx {

constexpr char kManifestName[] = "MANIFEST";

struct ManifestData {
  uint64_t next_file_number = 1;
  /// Every version with seq <= flushed_seq is in the segments; the WAL replays what is newer.
  uint64_t flushed_seq = 0;
  /// Live keys as of flushed_seq.
  uint64_t live_keys = 0;
  /// WAL files numbered below this are obsolete (their records are in the segments): recovery
  /// skips them, even when a power cut brought a removed one back (LevelDB's LogNumber).
  uint64_t log_number = 0;
  /// Live segment file numbers, newest first.
  std::vector<uint64_t> segments;
};

std::string EncodeManifest(const ManifestData& m);
/// Corruption on bad magic, checksum or layout. A fuzzing entry point.
Status DecodeManifest(std::string_view data, ManifestData* m);
/// *exists is false (and OK returned) when the directory has no manifest.
Status ReadManifest(Env* env, const std::string& dir, ManifestData* m, bool* exists);
/// Replaces dir/MANIFEST atomically and durably (Env::ReplaceFileAtomically).
Status WriteManifest(Env* env, const std::string& dir, const ManifestData& m);

std::string SegmentFileName(uint64_t number);  // "000012.seg"
std::string WalFileName(uint64_t number);      // "000013.wal"
/// Parses "<number>.seg" / "<number>.wal". False for other names.
bool ParseFileName(const std::string& name, uint64_t* number, std::string* ext);

}  // namespace dbx
