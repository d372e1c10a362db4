// Fuzz target: YCSB workload files (workloads/ycsb_workload.h). Any bytes give either a workload that
// satisfies the documented invariants or an InvalidArgument naming the source — never a crash.
#include <cmath>
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_check.h"
#include "workloads/ycsb_workload.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  dbxb::Result<dbxb::YcsbWorkload> r = dbxb::ParseYcsbWorkload(text, "fuzz.properties");
  if (!r.ok()) {
    FUZZ_CHECK(r.status().IsInvalidArgument(), r.status().ToString().c_str());
    FUZZ_CHECK(r.status().message().rfind("fuzz.properties", 0) == 0, "the message names the file");
    return 0;
  }
  const dbxb::YcsbWorkload& w = r.value();
  double sum = w.read_proportion + w.update_proportion + w.scan_proportion + w.insert_proportion +
               w.read_modify_write_proportion;
  FUZZ_CHECK(std::fabs(sum - 1.0) <= 1e-6 + 1e-12, "proportions sum to 1");
  for (double p :
       {w.read_proportion, w.update_proportion, w.scan_proportion, w.insert_proportion, w.read_modify_write_proportion})
    FUZZ_CHECK(p >= 0 && p <= 1, "each proportion in [0, 1]");
  FUZZ_CHECK(w.record_count >= 1, "recordcount >= 1");
  FUZZ_CHECK(w.insert_start <= w.record_count, "insertstart within recordcount");
  if (w.scan_proportion > 0) FUZZ_CHECK(w.min_scan_length <= w.max_scan_length, "scan lengths ordered");
  FUZZ_CHECK(!w.KeyChooserName().empty(), "a key chooser for the request distribution");
  return 0;
}
