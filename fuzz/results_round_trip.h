// The property both results.json fuzz targets hold: any bytes give either results or a
// Corruption/InvalidArgument status with a message, and results that read back are written again and
// read back to the same document (write -> read -> write is stable).
#pragma once

#include <string_view>

#include "fuzz/fuzz_check.h"
#include "records/json_results.h"

namespace dbxb::fuzz {

/// Reads `text`; false (after checking the error) when the reader refused it. When it returns true,
/// `results` holds what was read, and writing it again was checked to be stable.
inline bool ReadsBackStable(std::string_view text, RunResults* results) {
  Status st = ParseResults(text, results);
  if (!st.ok()) {
    FUZZ_CHECK(st.IsCorruption() || st.IsInvalidArgument(), st.ToString().c_str());
    FUZZ_CHECK(!st.message().empty(), "an error says what is wrong");
    return false;
  }
  std::string first = SerializeResults(*results);
  RunResults again;
  st = ParseResults(first, &again);
  FUZZ_CHECK(st.ok(), st.ToString().c_str());
  FUZZ_CHECK(SerializeResults(again) == first, "write -> read -> write is stable");
  return true;
}

}  // namespace dbxb::fuzz
