#include "src/memory_budget.h"

#include <algorithm>

namespace dbx {
namespace {

constexpr size_t kMiB = size_t{1} << 20;

void Resolve(size_t* field, size_t value) {
  if (*field == Options::kAuto) *field = value;
}

}  // namespace

Options ResolveOptions(const Options& requested) {
  Options o = requested;
  const size_t b = o.memory_budget_bytes;
  if (b == 0) {
    Resolve(&o.delta_flush_bytes, 0);
    Resolve(&o.wos_flush_bytes, 128 * kMiB);
    Resolve(&o.columnar_cache_bytes, 256 * kMiB);
    Resolve(&o.block_cache_bytes, 64 * kMiB);
    Resolve(&o.bytes_per_sync, 0);
  } else {
    // Half of the budget is for writes: the active delta store (1/16) and the delta stores and WOS
    // behind it (7/16: one WOS filling, one being written, frozen deltas queued), which a stall keeps
    // there. The block cache gets 1/4, the columnar cache 1/8; the last 1/8 is left for compaction
    // and segment-writing buffers, iterators and the per-segment indexes. A floor of a few KiB keeps
    // tiny budgets (tests) working: a delta store must hold at least a few records.
    Resolve(&o.delta_flush_bytes, std::max<size_t>(b / 16, 16 << 10));
    Resolve(&o.wos_flush_bytes, std::max<size_t>(b / 8, 32 << 10));
    Resolve(&o.columnar_cache_bytes, b / 8);
    Resolve(&o.block_cache_bytes, b / 4);
    Resolve(&o.bytes_per_sync, kMiB);
  }
  // Without a budget the stall limit only guards against the background thread falling far behind.
  Resolve(&o.write_buffer_limit_bytes,
          b == 0 ? 4 * o.wos_flush_bytes : std::max<size_t>(b / 16 * 7, 3 * o.wos_flush_bytes));
  return o;
}

}  // namespace dbx
