// Debian 12's builds of the embedded engines that run at their current release (SQLite 3.40.1, LMDB
// 0.9.24, RocksDB 7.8.3, WiredTiger 3.2.1), as the variants sqlite@debian, lmdb@debian, rocksdb@debian
// and wiredtiger@debian, so that one run can measure a distribution's build beside the release.
//
// Two versions of one C library cannot share a process's symbols, so the variants live in a module of
// their own (libdbxb-debian-engines.so, built by adapters/debian/CMakeLists.txt): the same adapter
// sources compiled again against Debian's headers and linked to Debian's shared libraries. The
// executable links the releases statically and exports none of their symbols, so the module's calls
// reach Debian's libraries; it does export the sync interposers (common/sync/sync_interposers.h), so
// the Debian libraries' fsyncs are counted as the releases' are. The module is loaded with RTLD_LOCAL
// from the directory of the executable, or else from where this build wrote it.
#pragma once

#include <string>
#include <vector>

#include "adapters/adapter.h"

namespace dbxb {

/// Registers the variants when the module loads: each is its engine's factory from the module, named
/// "<engine>@debian", with variant_of set to the engine. Without the module nothing is registered and
/// DebianVariantsProblem() says why.
void RegisterDebianVariants(AdapterRegistry* registry);

/// Why the variants are not registered (this build has none, or the module did not load), or empty.
const std::string& DebianVariantsProblem();

/// The module's entry point, looked up by name: fills `out` with the factories of the engines it
/// carries under their own names ("sqlite"), when `abi` and `factory_bytes` are the module's own
/// kVariantsAbi and sizeof(AdapterFactory); returns false otherwise (a module from another build).
extern "C" bool dbxb_debian_engines(int abi, size_t factory_bytes, std::vector<AdapterFactory>* out);

/// Raised when the interface between the executable and the module changes.
constexpr int kVariantsAbi = 1;

}  // namespace dbxb
