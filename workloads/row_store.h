// Rows on any engine: the native RowSession when the adapter has one (SQLite), else a key/value mapping
// over the generic Session that does the same work a SQL engine does for the table
// rows(id INTEGER PRIMARY KEY, a INTEGER, b INTEGER, payload TEXT) with indexes on a and b.
//
// The key/value mapping (all integers as 8 big-endian bytes with the sign bit flipped, so that bytewise
// order is numeric order, negative numbers included):
//
//   row        'r' + int(id)            -> int(a) + int(b) + payload
//   index a    'a' + int(a) + int(id)   -> ""        (ordered by a, then id)
//   index b    'b' + int(b) + int(id)   -> ""        (ordered by b, then id)
//
// Every write of a row and its index entries is one Begin..Commit batch, so a reader never sees a row
// without its index entries. An index range read scans the index key space for `limit` entries and then
// reads each row by a point Get on its primary key, which is exactly what SQLite does for a non-covering
// index (an index B-tree walk, then a table B-tree lookup per rowid). A row fetched through an index
// entry whose value it no longer has, or that is missing, is reported as Corruption.
//
// UpdateRow reads the current row (a Get before the batch) to learn which index entries to move; the
// batch then rewrites only the entries whose value changed. On engines whose batches do not isolate
// reads (RocksDB, DBX) two sessions updating the same row at once to different values of a or b could
// leave a stale index entry; the sqlite-vps phases never do that (concurrent updates of one row always
// write the same values). InsertRows writes blindly, without checking that the ids are new.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "adapters/adapter.h"
#include "adapters/row_session.h"
#include "common/status.h"

namespace dbxb {

/// Appends the 8-byte order-preserving encoding of v (big-endian, sign bit flipped).
void AppendOrderedInt64(int64_t v, std::string* out);
/// Decodes AppendOrderedInt64's bytes. REQUIRES: bytes.size() >= 8.
int64_t DecodeOrderedInt64(std::string_view bytes);

/// Keys of the key/value mapping, as documented above.
std::string RowKey(int64_t id);
std::string IndexAKey(int64_t a, int64_t id);
std::string IndexBKey(int64_t b, int64_t id);

/// The key/value mapping over a new Session of `adapter` (used for every engine without native rows,
/// and by tests on engines that have them).
Result<std::unique_ptr<RowSession>> OpenKvRowSession(Adapter& adapter);

/// The adapter's native RowSession when it has one, else OpenKvRowSession(adapter). *native (optional)
/// tells which one it is.
Result<std::unique_ptr<RowSession>> OpenRowSession(Adapter& adapter, bool* native = nullptr);

}  // namespace dbxb
