// Fuzz target: the results.json reader (records/json_results.h). Any bytes give either results or a
// Corruption/InvalidArgument status — never a crash or an exception. Results that read back are
// written again and must read back to the same document (write -> read -> write is stable).
#include <cstdint>
#include <string_view>

#include "fuzz/results_round_trip.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  dbxb::RunResults results;
  dbxb::fuzz::ReadsBackStable(std::string_view(reinterpret_cast<const char*>(data), size), &results);
  return 0;
}
