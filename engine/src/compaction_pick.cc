#include "src/compaction_pick.h"

namespace dbx {

size_t PickCompaction(const std::vector<uint64_t>& sizes, int trigger) {
  if (trigger <= 0) return 0;
  const auto t = static_cast<size_t>(trigger);
  if (sizes.size() < t) return 0;
  size_t k = 1;
  uint64_t run = sizes[0];
  while (k < sizes.size() && sizes[k] <= 2 * run) run += sizes[k++];
  if (k >= t) return k;
  return sizes.size() >= 3 * t ? sizes.size() : 0;
}

}  // namespace dbx
