// How every command and writer names a result record: one function per kind of record.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "records/result.h"

namespace dbxb {

/// "suite/workload/engine", e.g. "dbx-micro/get/sqlite".
std::string BenchmarkName(const BenchmarkResult& b);

/// "suite/workload/dataset/phase/engine" without the empty parts, e.g. "ycsb/workloada/run/sqlite",
/// "sqlite-vps/cached/select-pk/lmdb".
std::string PhaseName(const PhaseResult& p);

/// "linear" or "flat": the name of a sampling mode in results.json and in reports.
const char* SamplingModeName(SamplingMode mode);

/// "key=value, key=value" in recorded order.
std::string JoinKeyValues(const KeyValues& kvs);

/// The non-empty parts joined with `sep`, e.g. JoinNonEmpty({"ycsb", "", "run"}, "/") == "ycsb/run".
std::string JoinNonEmpty(const std::vector<std::string>& parts, std::string_view sep);

}  // namespace dbxb
