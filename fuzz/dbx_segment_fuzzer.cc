// Fuzz target: DBX's segment reader (engine/src/segment_reader.h) over an in-memory file. The input
// is opened twice: as is (footer magic and checksum checks) and with every checksum the bytes
// describe repaired (footer, meta, index and bloom decoding, block parsing, decompression). A
// segment that opens is then read in full, sought and probed. Corrupt bytes must give Corruption,
// never a crash or an out-of-bounds read.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "fuzz/dbx_checksums.h"
#include "fuzz/fuzz_check.h"
#include "src/block_cache.h"
#include "src/env.h"
#include "src/hash.h"
#include "src/segment_reader.h"

namespace {

void OpenAndRead(const std::string& bytes) {
  std::shared_ptr<dbx::SegmentReader> r;
  auto cache = std::make_shared<dbx::BlockCache>(1 << 20);
  dbx::Status s = dbx::SegmentReader::Open(dbx::NewMemoryFile("fuzz.seg", bytes), 1, cache, &r);
  if (!s.ok()) {
    FUZZ_CHECK(s.IsCorruption() || s.IsIOError(), s.ToString().c_str());
    return;
  }
  std::string first, last;
  uint64_t versions = 0;
  auto it = r->NewIterator();
  for (it->SeekToFirst(); it->Valid() && versions < 100000; it->Next()) {
    if (versions++ == 0) first.assign(it->key());
    last.assign(it->key());
    (void)it->value();
  }
  FUZZ_CHECK(it->status().ok() || it->status().IsCorruption(), it->status().ToString().c_str());
  for (const std::string& key : {first, last, r->meta().smallest, r->meta().largest, std::string("key_00000001")}) {
    dbx::Lookup lookup;
    std::string value;
    uint64_t seq = 0;
    s = r->Get(key, dbx::Hash64(key), UINT64_MAX, &lookup, &value, &seq);
    FUZZ_CHECK(s.ok() || s.IsCorruption(), s.ToString().c_str());
    it->Seek(key);
    if (it->Valid()) (void)it->key();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  OpenAndRead(bytes);
  dbx::fuzz::RepairSegmentChecksums(&bytes);
  OpenAndRead(bytes);
  return 0;
}
