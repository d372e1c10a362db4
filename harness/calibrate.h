// Calibration: how much the adapter and the harness add to each engine (`dbx-bench calibrate`,
// `run --calibrate`).
//
// For every engine and dbx-micro workload (get, insert, scan), the harness's loop (the dbx-micro
// benchmark itself, through Adapter and Session) and the engine's native loop (adapters/native_loop.h:
// the same loop against the library's own API, on the same database, same data and settings) run in
// alternating rounds (ABBA), each round timed as a whole; the median over rounds of the round's ratio,
// harness / native, is what the harness adds (the ratio of the fastest rounds is reported too). The
// goal is at most 1.05 for point reads (get).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "adapters/adapter.h"
#include "records/result.h"

namespace dbxb {

/// Runs both loops of `workload` ("get", "insert" or "scan") on `engine`, `rounds` times each.
/// Errors are recorded in the result's `error`.
CalibrationResult CalibrateOne(const AdapterFactory& engine, const std::string& workload, uint64_t records,
                               uint64_t rounds, const std::string& work_dir);

/// The loops calibrated per engine, in order: get, scan, insert.
const std::vector<std::string>& CalibrationWorkloads();

/// True when `engine` has a native loop (Adapter::NewNativeLoop); null and the engines without one
/// are not calibrated.
bool HasNativeLoop(const AdapterFactory& engine);

/// The console table's header and one row of it (a failed row prints its error).
std::string CalibrationHeader();
std::string CalibrationLine(const CalibrationResult& row);

}  // namespace dbxb
