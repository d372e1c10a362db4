// The file through which a server's processes count their sync calls (common/sync/sync_preload.cc) and
// the tool reads them: two 64-bit words at its start, updated with atomic adds through shared mappings.
#pragma once

#include <stdint.h>

namespace dbxb_sync {

/// The environment variable naming the counter file for the preloaded library.
inline constexpr char kCounterFileVariable[] = "DBXB_SYNC_COUNTER_FILE";

struct CounterWords {
  uint64_t loaded;      ///< processes that loaded the library (exec'd with it preloaded)
  uint64_t sync_calls;  ///< sync calls of every process that maps the file
};

}  // namespace dbxb_sync
