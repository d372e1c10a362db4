// Transaction: snapshot isolation with first-committer-wins. Reads see the snapshot taken at
// DB::BeginTransaction plus the transaction's own writes. Commit fails with Conflict when another
// transaction or write committed a key this one writes after the snapshot was taken; nothing of the
// transaction is then applied. Not thread-safe; destroy before closing the DB (an open transaction
// is aborted by its destructor).
#pragma once

#include <string>
#include <string_view>

#include "dbx/status.h"

namespace dbx {

class Transaction {
 public:
  virtual ~Transaction() = default;
  /// NotFound when the key is absent in the snapshot (or deleted by this transaction).
  virtual Status Get(std::string_view key, std::string* value) = 0;
  virtual Status Put(std::string_view key, std::string_view value) = 0;
  virtual Status Delete(std::string_view key) = 0;
  /// Applies every write atomically, durably as the DB's Durability promises. Conflict on a
  /// write-write conflict. After Commit or Abort, only the destructor may be called.
  virtual Status Commit() = 0;
  virtual Status Abort() = 0;
};

}  // namespace dbx
