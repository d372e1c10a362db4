// Fuzz target: HdrHistogram interval logs and histogram encodings (records/hdr_log.h, hdr_encoding.h),
// what `dbx-bench merge` reads. Any bytes give a log or a Corruption status — never a crash; a log that
// reads is written again and reads back with the same intervals and counts. The same bytes are also
// decoded as one compressed histogram.
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz/fuzz_check.h"
#include "records/hdr_encoding.h"
#include "records/hdr_log.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  dbxb::Result<dbxb::LatencyHistogram> h = dbxb::DecodeHdrCompressed(data, size);
  if (h.ok()) {
    dbxb::Result<dbxb::LatencyHistogram> again = dbxb::DecodeHdrBase64(dbxb::EncodeHdrBase64(h.value()));
    FUZZ_CHECK(again.ok(), again.status().ToString().c_str());
    FUZZ_CHECK(again->Count() == h->Count(), "a decoded histogram encodes and decodes to the same count");
  } else {
    FUZZ_CHECK(h.status().IsCorruption(), h.status().ToString().c_str());
  }
  dbxb::Result<dbxb::HdrLog> log = dbxb::ParseHdrLog(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!log.ok()) {
    FUZZ_CHECK(log.status().IsCorruption(), log.status().ToString().c_str());
    return 0;
  }
  dbxb::Result<dbxb::HdrLog> back = dbxb::ParseHdrLog(dbxb::FormatHdrLog(log.value()));
  FUZZ_CHECK(back.ok(), back.status().ToString().c_str());
  FUZZ_CHECK(back->intervals.size() == log->intervals.size(), "write -> read keeps every interval");
  for (size_t i = 0; i < log->intervals.size(); ++i) {
    FUZZ_CHECK(back->intervals[i].histogram.Count() == log->intervals[i].histogram.Count(), "and its counts");
    FUZZ_CHECK(back->intervals[i].tag == log->intervals[i].tag, "and its tag");
  }
  return 0;
}
