// Rows: a table with an integer primary key, two indexed integer columns and a text payload, the shape
// of the sqlite-vps suite (workloads/sqlite_vps/). Declared in the adapter layer so that an engine with
// tables of its own (SQLite) can offer a native implementation through Adapter::NewRowSession(); every
// other engine gets the key/value mapping of workloads/row_store.h, which keeps each secondary index as
// a second key space written in the same transaction as the row.
//
// A RowSession, like a Session, belongs to one thread; different RowSessions of one Adapter may be used
// concurrently. No exception crosses this interface, and implementations never read a clock.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/function_ref.h"
#include "common/status.h"

namespace dbxb {

/// One row of the table `rows(id INTEGER PRIMARY KEY, a INTEGER, b INTEGER, payload TEXT)`, with an
/// index on a (ordered by a, then id) and an index on b (ordered by b, then id).
struct Row {
  int64_t id = 0;
  int64_t a = 0;
  int64_t b = 0;
  std::string payload;

  friend bool operator==(const Row&, const Row&) = default;
};

/// Called once per row by the index range reads, in index order. Return false to stop early. The row
/// is valid only during the call (implementations reuse its buffer).
using RowVisitor = FunctionRef<bool(const Row& row)>;

class RowSession {
 public:
  virtual ~RowSession() = default;

  /// Starts a transaction: InsertRow and UpdateRow calls until Commit become visible to other sessions
  /// together at Commit, or never after Abort. Whether reads inside it see its own writes is
  /// engine-specific; within one transaction a row must be written at most once.
  /// InvalidArgument when a transaction is already open; it is open only when DoBegin returned OK.
  Status Begin() {
    if (in_txn_) return Status::InvalidArgument("Begin: a transaction is already open");
    Status s = DoBegin();
    in_txn_ = s.ok();
    return s;
  }
  /// InvalidArgument when no transaction is open; it is closed afterwards whatever DoCommit returns.
  Status Commit() {
    if (!in_txn_) return Status::InvalidArgument("Commit: no transaction is open");
    in_txn_ = false;
    return DoCommit();
  }
  /// InvalidArgument when no transaction is open; it is closed afterwards.
  Status Abort() {
    if (!in_txn_) return Status::InvalidArgument("Abort: no transaction is open");
    in_txn_ = false;
    return DoAbort();
  }
  /// True between a successful Begin and the next Commit or Abort.
  bool in_transaction() const { return in_txn_; }

  /// Inserts one row; outside Begin..Commit it is a transaction of its own.
  /// REQUIRES: the id is not present yet. SQLite enforces it (InvalidArgument); the key/value mapping
  /// writes blindly and does not check.
  virtual Status InsertRow(const Row& row) = 0;

  /// Reads the row with primary key `id` into *row. NotFound when absent.
  virtual Status GetById(int64_t id, Row* row) = 0;

  /// Visits up to `limit` rows (0 = no limit) with a >= lo, ordered by (a, id): an index range read
  /// that fetches each row through its primary key, as a non-covering index does.
  virtual Status RangeByIndexA(int64_t lo, uint64_t limit, RowVisitor visitor) = 0;
  /// The same on the index on b, ordered by (b, id).
  virtual Status RangeByIndexB(int64_t lo, uint64_t limit, RowVisitor visitor) = 0;

  /// Replaces a, b and payload of the row `row.id`, moving the index entries of a and b when their
  /// values change, all in one transaction (its own outside Begin..Commit). NotFound when the row is
  /// absent.
  virtual Status UpdateRow(const Row& row) = 0;

  /// The exact number of rows.
  virtual Status Count(uint64_t* count) = 0;

  /// Inserts `rows` in one transaction: all of them become visible at once, or none (on any error).
  Status InsertRows(const std::vector<Row>& rows) {
    DBXB_RETURN_IF_ERROR(Begin());
    for (const Row& row : rows) {
      Status s = InsertRow(row);
      if (!s.ok()) {
        (void)Abort();
        return s;
      }
    }
    return Commit();
  }

 protected:
  /// The engine's side of Begin, Commit and Abort, called only in the states named there: DoBegin with
  /// no transaction open, DoCommit and DoAbort with one open (in_transaction() is already false then).
  virtual Status DoBegin() = 0;
  virtual Status DoCommit() = 0;
  virtual Status DoAbort() = 0;

 private:
  bool in_txn_ = false;
};

}  // namespace dbxb
