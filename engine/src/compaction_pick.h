// Which segments a background compaction merges (size-tiered): the newest run of segments of
// similar size, so that every byte is rewritten O(log n) times as the data grows, instead of once per
// compaction as when every compaction merges everything.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace dbx {

/// `sizes` are the live segments' file sizes, newest first. Returns how many of the newest to merge
/// (0: none yet). The run grows from the newest segment while the next older one is at most twice
/// the run's total; it is merged once it holds `trigger` segments. When the sizes leave no such run
/// and there are 3 x trigger segments, all of them are merged.
size_t PickCompaction(const std::vector<uint64_t>& sizes, int trigger);

}  // namespace dbx
