// How the LMDB adapter opens its environment: the flags a durability level maps to, the lmdb.* native
// options, and the size of the map. Internal to the LMDB adapter; none of it runs while a phase is timed.
#pragma once

#include <cstddef>
#include <string>

#include "adapters/adapter.h"
#include "common/status.h"

namespace dbxb::lmdb_internal {

inline constexpr char kReadaheadKey[] = "lmdb.readahead";
inline constexpr char kMapSizeKey[] = "lmdb.map_size";
/// The smallest map the adapter opens: lmdb.map_size below it is refused, and halving stops above it.
inline constexpr size_t kMinMapBytes = size_t{1} << 20;

/// What the environment is opened with.
struct EnvConfig {
  unsigned flags = 0;    ///< mdb_env_open's flags
  size_t map_bytes = 0;  ///< lmdb.map_size; 0: the filesystem's size
};

/// The flags of options.durability, then AdapterOptions::native_options with the "lmdb." prefix:
///   lmdb.readahead = on (LMDB's default) | off (MDB_NORDAHEAD: the OS does not read ahead around the
///                    page a random read faults in, which LMDB recommends once the database is larger
///                    than RAM);
///   lmdb.map_size  = bytes, e.g. 4294967296 or 4GiB (at least kMinMapBytes, at most what mmap can
///                    reserve): the map, and so the largest the database may grow to, instead of the
///                    filesystem's size.
/// InvalidArgument naming the option for a bad value or an unknown lmdb.* key.
Result<EnvConfig> EnvConfigFor(const AdapterOptions& options);

/// The names of the MDB_* flags set in `flags`, joined by '|'; "0" when none is.
std::string FlagNames(unsigned flags);

/// `bytes` rounded down to a whole number of pages.
size_t RoundDownToPage(size_t bytes);

/// The size of the filesystem that holds `dir` (statvfs: blocks x fragment size), at most SIZE_MAX.
Result<size_t> FilesystemBytes(const std::string& dir);

}  // namespace dbxb::lmdb_internal
