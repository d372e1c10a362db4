// results.json as a Reporter (records/json_results.h holds the format itself).
#pragma once

#include <ostream>

#include "common/status.h"
#include "records/result.h"
#include "writers/reporter.h"

namespace dbxb {

/// Write() emits SerializeResults(results).
class JsonReporter : public Reporter {
 public:
  Status Write(const RunResults& results, std::ostream& out) override;
};

}  // namespace dbxb
