// The reporter interface (Google Benchmark's pattern): a reporter sees only the plain records of
// records/result.h and writes them to a stream it is given. The runner never formats; a reporter
// never measures, never computes statistics, and never opens files (see common/atomic_file.h for
// writing a rendered report to disk).
#pragma once

#include <ostream>
#include <string>

#include "common/status.h"
#include "records/record_names.h"
#include "records/result.h"

namespace dbxb {

class Reporter {
 public:
  virtual ~Reporter() = default;

  /// Renders the whole run to `out`. Benchmarks with error_occurred are rendered as failures, never
  /// skipped. Returns IOError when the stream failed; never throws.
  virtual Status Write(const RunResults& results, std::ostream& out) = 0;
};

/// The status every reporter returns after writing: IOError if the stream went bad.
inline Status StreamStatus(const std::ostream& out, const char* what) {
  if (out.good()) return Status::Ok();
  return Status::IOError(std::string("writing ") + what + " failed");
}

}  // namespace dbxb
