// Iterator: an ordered cursor over the keys of a consistent snapshot of the database.
// Keys are ordered bytewise. key() and value() are valid until the next move or destruction.
// Not thread-safe; an Iterator must be destroyed before its DB is closed.
#pragma once

#include <string_view>

#include "dbx/status.h"

namespace dbx {

class Iterator {
 public:
  virtual ~Iterator() = default;
  virtual bool Valid() const = 0;
  virtual void SeekToFirst() = 0;
  /// Positions at the first key >= target.
  virtual void Seek(std::string_view target) = 0;
  /// REQUIRES: Valid().
  virtual void Next() = 0;
  /// REQUIRES: Valid().
  virtual std::string_view key() const = 0;
  virtual std::string_view value() const = 0;
  /// Not OK when reading failed (e.g. Corruption); Valid() is then false.
  virtual Status status() const = 0;
};

}  // namespace dbx
