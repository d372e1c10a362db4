// Merging the phases of several runs (`dbx-bench merge`): the client hosts of one test, or repeated
// runs. Histograms and counts are added — percentiles are recomputed from the added histograms, never
// averaged — and the result says what it merged.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "records/latency_histogram.h"
#include "records/result.h"

namespace dbxb {

/// One run to merge and the name it is known by (the path given on the command line).
struct MergeInput {
  std::string file;
  RunResults results;
};

/// Merges `inputs` (at least two) phase by phase: every input must hold the same phases (suite, workload,
/// phase, engine, data set), each with the same parameters, engine settings, operation types, loop
/// (open/closed) and library versions, and the runs the same configuration apart from what may differ
/// between clients (output and data paths, seed, threads, operation count, duration, target rate,
/// warm-up). Per phase: histograms (service time, latency from the intended start, per operation type)
/// and operation counts are added; min and max are the extremes, the mean the count-weighted mean.
/// Throughput: when every input's measured time overlaps every other's ("concurrent") the rates add and
/// the duration is the span from the first start to the last end; otherwise ("sequential") it is the
/// operations over the summed durations. merged_from lists each input's own figures (per host);
/// per_second is left empty (the inputs' seconds do not line up). The context is the first input's, with
/// host_name the inputs' distinct hosts joined by '+', date_utc the earliest and merged_files the inputs.
/// InvalidArgument, naming the file and phase, for any mismatch, a failed phase, a missing or corrupt
/// histogram, dbx-micro benchmarks (which have no histograms to merge) or capacity searches (each run's
/// own steps, at rates of its own: nothing to add).
Result<RunResults> MergeRuns(const std::vector<MergeInput>& inputs);

}  // namespace dbxb
