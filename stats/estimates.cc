#include "stats/estimates.h"

#include <cmath>
#include <limits>
#include <string>

#include "stats/bootstrap.h"
#include "stats/statistics.h"

namespace dbxb {
namespace {

Status ValidateBootstrapSettings(const SamplingConfig& config) {
  if (config.bootstrap_resamples == 0) return Status::InvalidArgument("bootstrap_resamples must be positive");
  // Written so that NaN fails too.
  if (!(config.confidence_level > 0 && config.confidence_level < 1))
    return Status::InvalidArgument("confidence_level must lie strictly between 0 and 1");
  return Status::Ok();
}

Status ValidateSamples(const std::vector<Sample>& samples) {
  if (samples.size() < 2)
    return Status::InvalidArgument("at least 2 samples are needed, got " + std::to_string(samples.size()));
  if (samples.size() > std::numeric_limits<uint32_t>::max())  // BootstrapSamples counts in 32 bits
    return Status::InvalidArgument("too many samples: " + std::to_string(samples.size()));
  for (size_t i = 0; i < samples.size(); ++i) {
    const Sample& s = samples[i];
    if (s.iterations == 0) return Status::InvalidArgument("sample " + std::to_string(i) + " has zero iterations");
    if (!std::isfinite(s.total_ns) || s.total_ns <= 0)
      return Status::InvalidArgument("sample " + std::to_string(i) + " has a non-positive or non-finite time (" +
                                     std::to_string(s.total_ns) + " ns)");
  }
  return Status::Ok();
}

}  // namespace

Status ValidateSamplingConfig(const SamplingConfig& config) {
  if (!(config.warmup_seconds > 0) || !std::isfinite(config.warmup_seconds))
    return Status::InvalidArgument("warmup_seconds must be positive");
  if (!(config.measurement_seconds > 0) || !std::isfinite(config.measurement_seconds))
    return Status::InvalidArgument("measurement_seconds must be positive");
  if (config.sample_count < kMinSampleCount)
    return Status::InvalidArgument("sample_count must be at least " + std::to_string(kMinSampleCount) + ", got " +
                                   std::to_string(config.sample_count));
  return ValidateBootstrapSettings(config);
}

Status Analyze(const std::vector<Sample>& samples, SamplingMode mode, uint64_t elements_per_iteration,
               const SamplingConfig& config, BenchmarkResult* out) {
  DBXB_RETURN_IF_ERROR(ValidateBootstrapSettings(config));
  DBXB_RETURN_IF_ERROR(ValidateSamples(samples));
  const bool linear = mode == SamplingMode::kLinear;
  const double cl = config.confidence_level;

  const std::vector<double> times = PerIterationTimes(samples);
  SampleDistributions d = BootstrapSamples(samples, linear, config.bootstrap_resamples, config.seed);

  Estimates estimates;
  estimates.mean = SummarizeDistribution(Mean(times), &d.mean, cl);
  estimates.median = SummarizeDistribution(Median(times), &d.median, cl);
  estimates.std_dev = SummarizeDistribution(StdDev(times), &d.std_dev, cl);
  estimates.median_abs_dev = SummarizeDistribution(MedianAbsDev(times), &d.median_abs_dev, cl);
  if (linear) estimates.slope = SummarizeDistribution(Slope(samples), &d.slope, cl);

  Interval throughput;
  if (elements_per_iteration > 0) {
    // Every resampled time is positive (all samples are), so the transform is finite.
    const double scale = static_cast<double>(elements_per_iteration) * 1e9;
    std::vector<double>& typical = linear ? d.slope : d.mean;
    for (double& t : typical) t = scale / t;
    throughput = SummarizeDistribution(scale / (linear ? estimates.slope->point : estimates.mean.point), &typical, cl);
  }

  out->estimates = estimates;
  out->outliers = ClassifyOutliers(times);
  out->throughput = throughput;
  return Status::Ok();
}

}  // namespace dbxb
