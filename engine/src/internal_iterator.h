// InternalIterator: an ordered cursor over raw versions, sorted by (key asc, seq desc), as every tier
// exposes them. The DB iterator and compaction merge these. Not thread-safe.
#pragma once

#include <cstdint>
#include <string_view>

#include "dbx/status.h"

namespace dbx {

/// Whether a tier holds a version of a key visible at a snapshot.
enum class Lookup { kAbsent, kValue, kDeleted };

class InternalIterator {
 public:
  virtual ~InternalIterator() = default;
  /// False at the end, and once status() is not ok.
  virtual bool Valid() const = 0;
  virtual void SeekToFirst() = 0;
  /// First version whose key >= target.
  virtual void Seek(std::string_view target) = 0;
  virtual void Next() = 0;
  virtual std::string_view key() const = 0;
  virtual uint64_t tag() const = 0;  // seq << 8 | type
  virtual std::string_view value() const = 0;
  virtual Status status() const = 0;
};

}  // namespace dbx
