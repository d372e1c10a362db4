#include "writers/json_reporter.h"

#include "records/json_results.h"

namespace dbxb {

Status JsonReporter::Write(const RunResults& results, std::ostream& out) {
  out << SerializeResults(results);
  return StreamStatus(out, "results.json");
}

}  // namespace dbxb
