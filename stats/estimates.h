// Criterion-style analysis of one benchmark's samples: point estimates with bootstrap confidence
// intervals, Tukey outlier counts and throughput.
#pragma once

#include <cstdint>
#include <vector>

#include "common/status.h"
#include "records/result.h"

namespace dbxb {

/// Criterion's lower bound on the number of samples.
inline constexpr uint64_t kMinSampleCount = 10;

/// OK when `config` can drive a sampling run and its analysis: positive warm-up and measurement times,
/// sample_count >= kMinSampleCount, bootstrap_resamples > 0, 0 < confidence_level < 1.
/// InvalidArgument naming the offending field otherwise.
[[nodiscard]] Status ValidateSamplingConfig(const SamplingConfig& config);

/// Analyzes `samples` as Criterion does and fills out->estimates, out->outliers and out->throughput
/// (nothing else in *out is touched):
///  - the per-sample statistic is the per-iteration time total_ns / iterations;
///  - mean, median, standard deviation (n - 1) and MAD (x 1.4826) of those, and in linear mode the
///    slope sum(iters * time) / sum(iters^2) (estimates.slope is cleared in flat mode);
///  - each with a percentile bootstrap interval at config.confidence_level from
///    config.bootstrap_resamples joint resamples of the (iterations, total_ns) pairs, seeded with
///    config.seed (same input, same output), and its standard error (the std dev of the bootstrap
///    distribution);
///  - Tukey outlier counts of the per-iteration times (reported, never removed);
///  - throughput in elements per second, elements_per_iteration * 1e9 / t, from the slope in linear
///    mode and the mean in flat mode (Criterion's "typical" estimate). Its interval is the percentile
///    interval of the transformed bootstrap distribution, so the time's upper bound becomes the
///    throughput's lower bound. All zero when elements_per_iteration is 0.
/// Only config.bootstrap_resamples, confidence_level and seed are read.
/// InvalidArgument (and *out untouched) when there are fewer than 2 samples, a sample has zero
/// iterations, a time is not finite or not positive (Criterion rejects zero-time samples too), or the
/// bootstrap settings are unusable.
[[nodiscard]] Status Analyze(const std::vector<Sample>& samples, SamplingMode mode, uint64_t elements_per_iteration,
                             const SamplingConfig& config, BenchmarkResult* out);

}  // namespace dbxb
