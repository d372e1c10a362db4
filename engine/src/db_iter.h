// User-facing iterators: DBIter resolves the merged internal stream at a snapshot (newest version
// per key, tombstones hidden); CacheIterator walks a columnar cache.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "dbx/iterator.h"
#include "src/columnar_cache.h"
#include "src/internal_iterator.h"
#include "src/super_version.h"

namespace dbx {

/// `on_destroy` runs when the iterator is destroyed (releases the snapshot it pins).
std::unique_ptr<Iterator> NewDBIter(std::shared_ptr<const SuperVersion> sv, uint64_t snapshot,
                                    std::function<void()> on_destroy);
std::unique_ptr<Iterator> NewCacheIterator(std::shared_ptr<const ColumnarCache> cache);

}  // namespace dbx
