// Fuzz target: the results.json reader (records/json_results.h). Any bytes give either results or a
// Corruption/InvalidArgument status — never a crash or an exception. Results that read back are
// written again and must read back to the same document (write -> read -> write is stable).
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz/fuzz_check.h"
#include "records/json_results.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  dbxb::RunResults results;
  dbxb::Status st = dbxb::ParseResults(text, &results);
  if (!st.ok()) {
    FUZZ_CHECK(st.IsCorruption() || st.IsInvalidArgument(), st.ToString().c_str());
    FUZZ_CHECK(!st.message().empty(), "an error says what is wrong");
    return 0;
  }
  std::string first = dbxb::SerializeResults(results);
  dbxb::RunResults again;
  st = dbxb::ParseResults(first, &again);
  FUZZ_CHECK(st.ok(), st.ToString().c_str());
  FUZZ_CHECK(dbxb::SerializeResults(again) == first, "write -> read -> write is stable");
  return 0;
}
