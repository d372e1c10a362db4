#include "adapters/adapter.h"

#include "adapters/dbx/dbx_adapter.h"
#include "adapters/lmdb/lmdb_adapter.h"
#include "adapters/null/null_adapter.h"
#include "adapters/rocksdb/rocksdb_adapter.h"
#include "adapters/sqlite/sqlite_adapter.h"

namespace dbxb {

std::string_view DurabilityName(Durability d) {
  switch (d) {
    case Durability::kNone: return "none";
    case Durability::kNormal: return "normal";
    case Durability::kFull: return "full";
  }
  return "unknown";
}

bool ParseDurability(std::string_view text, Durability* out) {
  if (text == "none") *out = Durability::kNone;
  else if (text == "normal") *out = Durability::kNormal;
  else if (text == "full") *out = Durability::kFull;
  else return false;
  return true;
}

Status AdapterRegistry::Register(AdapterFactory factory) {
  if (Find(factory.name) != nullptr) return Status::InvalidArgument("engine registered twice: " + factory.name);
  factories_.push_back(std::move(factory));
  return Status::Ok();
}

const AdapterFactory* AdapterRegistry::Find(std::string_view name) const {
  for (const auto& f : factories_)
    if (f.name == name) return &f;
  return nullptr;
}

void RegisterBuiltinAdapters(AdapterRegistry* registry) {
  // One line per engine. The order is the default engine order of a run.
  (void)registry->Register(DbxAdapterFactory());
  (void)registry->Register(SqliteAdapterFactory());
  (void)registry->Register(LmdbAdapterFactory());
  (void)registry->Register(RocksdbAdapterFactory());
  (void)registry->Register(NullAdapterFactory());
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
