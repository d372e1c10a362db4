// What a workload wrote, counted by the workload itself: the acknowledged commits and the key + value
// bytes they carried. The denominators of fsyncs per commit and of write amplification.
#pragma once

#include <cstdint>

namespace dbxb {

struct WriteTally {
  uint64_t commits = 0;        ///< write transactions acknowledged (a batch, or one write outside a batch)
  uint64_t logical_bytes = 0;  ///< key + value bytes those transactions wrote

  WriteTally& operator+=(const WriteTally& o) {
    commits += o.commits;
    logical_bytes += o.logical_bytes;
    return *this;
  }
  friend bool operator==(const WriteTally&, const WriteTally&) = default;
};

}  // namespace dbxb
