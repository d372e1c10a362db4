// The module's side of adapters/debian/debian_variants.h: the factories of the adapters compiled into
// it against Debian's libraries.
#include "adapters/debian/debian_variants.h"
#include "adapters/lmdb/lmdb_adapter.h"
#include "adapters/rocksdb/rocksdb_adapter.h"
#include "adapters/sqlite/sqlite_adapter.h"
#include "adapters/wiredtiger/wiredtiger_adapter.h"

extern "C" __attribute__((visibility("default"))) bool dbxb_debian_engines(int abi, size_t factory_bytes,
                                                                           std::vector<dbxb::AdapterFactory>* out) {
  if (abi != dbxb::kVariantsAbi || factory_bytes != sizeof(dbxb::AdapterFactory)) return false;
  out->push_back(dbxb::SqliteAdapterFactory());
  out->push_back(dbxb::LmdbAdapterFactory());
  out->push_back(dbxb::RocksdbAdapterFactory());
  out->push_back(dbxb::WiredtigerAdapterFactory());
  return true;
}
