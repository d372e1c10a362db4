// Merges internal iterators into one (key asc, seq desc) stream. Sequence numbers are unique across
// tiers, so the order is total. Not thread-safe.
#pragma once

#include <memory>
#include <vector>

#include "src/internal_iterator.h"

namespace dbx {

std::unique_ptr<InternalIterator> NewMergingIterator(std::vector<std::unique_ptr<InternalIterator>> children);

}  // namespace dbx
