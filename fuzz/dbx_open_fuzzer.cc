// Fuzz target: opening a DBX database whose files are damaged (engine/include/dbx/db.h DB::Open): the
// manifest decoder and WAL replay into the delta store, then a full read. The input is
//   manifest length (1 byte, 0 = no manifest) | manifest bytes | WAL bytes
// written as MANIFEST (its CRC repaired) and 000001.wal (record CRCs repaired) in a fresh directory.
// Open must succeed or fail with a status; an opened database must read back consistently:
// without a (possibly lying) manifest, Count() equals the number of keys a full scan sees.
//
// The engine opens files by path, so each input goes through a directory under /dev/shm (tmpfs: no
// disk I/O). A buffer-based recovery entry point in the engine would make this target faster.
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "dbx/db.h"
#include "fuzz/dbx_checksums.h"
#include "fuzz/fuzz_check.h"
#include "src/coding.h"
#include "src/crc32c.h"

namespace {

namespace fs = std::filesystem;

// The per-process scratch directory, removed at exit.
struct ScratchDir {
  ScratchDir() {
    std::error_code ec;
    fs::path base = fs::is_directory("/dev/shm", ec) ? fs::path("/dev/shm") : fs::temp_directory_path();
    path = base / ("dbx-open-fuzz-" + std::to_string(::getpid()));
    // A crashing run (the point of fuzzing) never reaches the destructor: remove what dead runs left.
    for (const auto& e : fs::directory_iterator(base, ec)) {
      std::string name = e.path().filename().string();
      if (name.rfind("dbx-open-fuzz-", 0) != 0) continue;
      pid_t pid = static_cast<pid_t>(std::atol(name.c_str() + 14));
      if (pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH) fs::remove_all(e.path(), ec);
    }
  }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  fs::path path;
};

const fs::path& Dir() {
  static const ScratchDir dir;
  return dir.path;
}

void WriteFile(const fs::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  size_t manifest_len = std::min<size_t>(data[0], size - 1);
  std::string manifest(reinterpret_cast<const char*>(data) + 1, manifest_len);
  std::string wal(reinterpret_cast<const char*>(data) + 1 + manifest_len, size - 1 - manifest_len);

  std::error_code ec;
  fs::remove_all(Dir(), ec);
  fs::create_directories(Dir());
  if (manifest_len >= 4) {
    size_t body = manifest.size() - 4;
    dbx::EncodeFixed32(manifest.data() + body, dbx::crc32c::Mask(dbx::crc32c::Value(manifest.data(), body)));
    WriteFile(Dir() / "MANIFEST", manifest);
  }
  dbx::fuzz::RepairWalChecksums(&wal);
  WriteFile(Dir() / "000001.wal", wal);

  dbx::Options options;
  options.durability = dbx::Durability::kNone;
  options.create_if_missing = false;
  options.block_cache_bytes = 1 << 20;
  options.columnar_cache_bytes = 0;
  std::unique_ptr<dbx::DB> db;
  dbx::Status s = dbx::DB::Open(options, Dir().string(), &db);
  if (!s.ok()) {
    FUZZ_CHECK(s.IsCorruption() || s.IsIOError() || s.IsInvalidArgument(), s.ToString().c_str());
    return 0;
  }
  uint64_t scanned = 0;
  auto it = db->NewIterator(dbx::ReadOptions());
  for (it->SeekToFirst(); it->Valid(); it->Next()) ++scanned;
  FUZZ_CHECK(it->status().ok(), it->status().ToString().c_str());
  it.reset();
  uint64_t count = 0;
  s = db->Count(dbx::ReadOptions(), &count);
  FUZZ_CHECK(s.ok(), s.ToString().c_str());
  if (manifest_len < 4) FUZZ_CHECK(count == scanned, "Count() equals the keys a scan sees");
  s = db->Close();
  FUZZ_CHECK(s.ok(), s.ToString().c_str());
  return 0;
}
