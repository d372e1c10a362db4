// NativeLoop: dbx-micro's get, insert and scan loops written directly against one engine's own API, on
// the database an Adapter has open — no Session, no virtual call per operation, no per-operation timing.
// `dbx-bench calibrate` times them against the same loops through the harness: the ratio is what the
// adapter and the harness add. Each loop keeps the semantics a Session guarantees (every read sees the
// latest commit; the insert is one transaction) and does the same checks the harness does, so that
// the two sides do the same work.
//
// A NativeLoop belongs to one thread, like a Session, and must be destroyed before its Adapter.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "common/reference_data.h"
#include "common/status.h"

namespace dbxb {

class NativeLoop {
 public:
  virtual ~NativeLoop() = default;

  /// Reads key i (built by data.KeyInto) for every i of `order`, in that order, and checks each value with
  /// data.ValueEquals(i, value), as the harness's get does. Corruption naming the row on a missing key
  /// or a wrong value.
  [[nodiscard]] virtual Status GetAll(const ReferenceData& data, const std::vector<uint64_t>& order) = 0;
  /// Writes every row of `data` in one transaction (one batch), committed at the end.
  [[nodiscard]] virtual Status PutAll(const ReferenceData& data) = 0;
  /// Reads the whole store in key order, accumulating each row with AddScanRow.
  [[nodiscard]] virtual Status ScanAll(uint64_t* rows, uint64_t* byte_sum) = 0;
};

/// What dbx-micro's scan accumulates per row (workloads/micro_suite.cc): both sides touch every key
/// and value byte count and their last bytes. REQUIRES: key is not empty.
inline void AddScanRow(std::string_view key, std::string_view value, uint64_t* rows, uint64_t* byte_sum) {
  ++*rows;
  *byte_sum += key.size() + value.size() + static_cast<unsigned char>(key.back()) +
               (value.empty() ? 0 : static_cast<unsigned char>(value.back()));
}

/// Corruption naming row i: missing (found == false) or holding a wrong value.
Status NativeLoopMismatch(uint64_t i, bool found);

}  // namespace dbxb
