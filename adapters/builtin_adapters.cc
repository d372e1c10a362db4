// The engines built into this binary, and the build variants of adapters/debian/ when their module loads.
#include "adapters/adapter.h"
#include "adapters/dbx/dbx_adapter.h"
#include "adapters/debian/debian_variants.h"
#include "adapters/leveldb/leveldb_adapter.h"
#include "adapters/lmdb/lmdb_adapter.h"
#include "adapters/null/null_adapter.h"
#include "adapters/postgres/postgres_adapter.h"
#include "adapters/rocksdb/rocksdb_adapter.h"
#ifdef DBXB_WITH_RUST
#include "adapters/rust/rust_adapter.h"
#endif
#include "adapters/sqlite/sqlite_adapter.h"
#include "adapters/wiredtiger/wiredtiger_adapter.h"

namespace dbxb {

void RegisterBuiltinAdapters(AdapterRegistry* registry) {
  // One line per engine. The order is the default engine order of a run.
  (void)registry->Register(DbxAdapterFactory());
#ifdef DBXB_WITH_RUST  // the Rust bridge (adapters/rust/); left out with -DDBXB_RUST=OFF
  (void)registry->Register(DbxCoreAdapterFactory());
  (void)registry->Register(SledAdapterFactory());
  (void)registry->Register(RedbAdapterFactory());
#endif
  (void)registry->Register(SqliteAdapterFactory());
  (void)registry->Register(LmdbAdapterFactory());
  (void)registry->Register(RocksdbAdapterFactory());
  (void)registry->Register(LeveldbAdapterFactory());
  (void)registry->Register(WiredtigerAdapterFactory());
  (void)registry->Register(PostgresAdapterFactory());
  (void)registry->Register(NullAdapterFactory());
  // Variants run only when named, so they come after every engine of the default order.
  RegisterDebianVariants(registry);
  (void)registry->Register(PostgresDebianAdapterFactory());  // the same adapter on Debian's server
}

const AdapterRegistry& BuiltinAdapters() {
  static const AdapterRegistry* registry = [] {
    auto* r = new AdapterRegistry();
    RegisterBuiltinAdapters(r);
    return r;
  }();
  return *registry;
}

}  // namespace dbxb
