// --hdr-log DIR: one HdrHistogram interval log per measured phase (records/hdr_log.h for the format).
#pragma once

#include <string>

#include "common/status.h"
#include "harness/phase_runner.h"
#include "records/result.h"

namespace dbxb {

/// Creates `dir` (and its parents) and checks that a file can be written in it, before the run.
/// InvalidArgument starting with "--hdr-log: " and naming the directory and the error otherwise.
Status PrepareHdrLogDir(const std::string& dir);

/// Writes the log of the phase `r` (labelled: suite, workload, engine, data set) from the interval
/// histograms of `run` (RunPhase with keep_interval_histograms) to dir/PhaseHdrLogFileName(r), atomically.
/// A second phase with the same labels (e.g. two YCSB files of the same name) gets ".2", ".3" before
/// ".hlog". Nothing is written for a phase that failed before measuring. IOError when the file cannot be
/// written.
Status WritePhaseHdrLog(const std::string& dir, const PhaseResult& r, const PhaseRun& run);

}  // namespace dbxb
