// Fuzz target: DBX's WAL reader (engine/src/wal.h ReadWalRecords) and the WriteBatch decoding every
// replayed record goes through. The input is read twice: as is (checksum and framing checks) and with
// its record CRCs repaired (the batch decoder behind them). Corrupt bytes must end the read or give
// Corruption, never a crash or an out-of-bounds read.
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz/dbx_checksums.h"
#include "fuzz/fuzz_check.h"
#include "src/wal.h"
#include "src/write_batch_internal.h"

namespace {

class CountingHandler : public dbx::WriteBatch::Handler {
 public:
  void Put(std::string_view key, std::string_view value) override { bytes_ += key.size() + value.size(), ++n_; }
  void Delete(std::string_view key) override { bytes_ += key.size(), ++n_; }
  uint64_t n_ = 0, bytes_ = 0;
};

void ReadAll(std::string_view wal) {
  dbx::WalReadResult res;
  uint64_t records = 0;
  dbx::Status s = dbx::ReadWalRecords(
      wal,
      [&](std::string_view payload) -> dbx::Status {
        ++records;
        dbx::WriteBatch b;
        if (!dbx::WriteBatchInternal::SetContents(&b, payload).ok()) return dbx::Status::Ok();  // too short
        CountingHandler h;
        dbx::Status st = b.Iterate(&h);
        FUZZ_CHECK(h.bytes_ <= payload.size(), "entries lie inside the record");
        if (st.ok()) FUZZ_CHECK(h.n_ == b.Count(), "Iterate OK means the count matched");
        dbx::WriteBatchInternal::Reader r(payload);
        dbx::ValueType type;
        std::string_view key, value;
        uint64_t walked = 0;
        while (r.Next(&type, &key, &value)) ++walked;
        FUZZ_CHECK(r.offset() <= payload.size(), "the reader stays inside the record");
        if (st.ok()) FUZZ_CHECK(walked == h.n_ && !r.corrupt(), "Reader and Iterate agree");
        return st.ok() || st.IsCorruption() ? dbx::Status::Ok() : st;
      },
      &res,
      [&](std::string_view payload) -> dbx::Status {  // the records after damage, as recovery sees them
        FUZZ_CHECK(res.torn, "records after damage only when the good prefix ended early");
        FUZZ_CHECK(payload.data() >= wal.data() + res.valid_bytes &&
                       payload.data() + payload.size() <= wal.data() + wal.size(),
                   "a record after the damage lies after the good prefix, inside the input");
        return dbx::Status::Ok();
      });
  FUZZ_CHECK(s.ok(), s.ToString().c_str());
  FUZZ_CHECK(res.records == records, "every good record was handed over");
  FUZZ_CHECK(res.valid_bytes <= wal.size(), "valid bytes within the input");
  FUZZ_CHECK(res.torn == (res.valid_bytes < wal.size()), "torn exactly when bytes are left");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string wal(reinterpret_cast<const char*>(data), size);
  ReadAll(wal);
  dbx::fuzz::RepairWalChecksums(&wal);
  ReadAll(wal);
  return 0;
}
