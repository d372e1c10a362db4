#include "reports/testdata/compare/synthetic_runs.h"

#include <cmath>
#include <cstdlib>

#include "common/prng.h"
#include "reports/estimates.h"

namespace dbxb::testdata {

std::vector<double> LognormalTimes(double mean, double cv, size_t n, uint64_t seed) {
  const double sigma2 = std::log1p(cv * cv);
  const double mu = std::log(mean) - sigma2 / 2;
  const double sigma = std::sqrt(sigma2);
  Xoshiro256 rng(seed);
  std::vector<double> out;
  out.reserve(n);
  while (out.size() < n) {
    const double u1 = 1.0 - rng.NextDouble();  // (0, 1]
    const double u2 = rng.NextDouble();
    const double r = std::sqrt(-2.0 * std::log(u1));
    out.push_back(std::exp(mu + sigma * r * std::cos(2 * M_PI * u2)));
    if (out.size() < n) out.push_back(std::exp(mu + sigma * r * std::sin(2 * M_PI * u2)));
  }
  return out;
}

RunResults SyntheticRun(const std::string& host, const std::vector<SyntheticBenchmark>& specs, uint64_t seed,
                        size_t samples) {
  RunResults r;
  RunContext& c = r.context;
  c.date_utc = "2026-12-01T09:00:00Z";
  c.host_name = host;
  c.cpu_model = "Synthetic CPU @ 3.00GHz";
  c.num_cpus = 4;
  c.memory_bytes = 17179869184ULL;
  c.kernel = "Linux 6.1.0-13-amd64";
  c.compiler = "GCC 12.2.0";
  c.compiler_flags = "-O3 -DNDEBUG";
  c.build_type = "Release";
  c.git_commit = "89abcdef0123456789abcdef0123456789abcdef";
  c.tool_version = "0.1.0 (89abcde)";
  c.libraries = {{"sqlite", "SQLite 3.40.1", "debian-package"}, {"lmdb", "LMDB 0.9.24", "debian-package"}};
  c.command_line = "build/dbx-bench run --engines sqlite,lmdb --seed 1";
  c.configuration = {{"suite", "dbx-micro"}, {"engines", "sqlite, lmdb"}};
  c.seed = 1;
  c.sampling.sample_count = samples;
  c.sampling.bootstrap_resamples = 200;
  for (size_t i = 0; i < specs.size(); ++i) {
    const SyntheticBenchmark& s = specs[i];
    BenchmarkResult b;
    b.suite = "dbx-micro";
    b.workload = s.workload;
    b.engine = s.engine;
    b.parameters = {{"records", "10000"}, {"key_size", "12"}, {"value_size", "19"}, {"durability", "none"}};
    b.engine_settings = {{"journal_mode", "wal"}};
    b.sampling_mode = SamplingMode::kFlat;
    b.elements_per_iteration = 1;
    for (double t : LognormalTimes(s.mean_ns, s.cv, samples, seed + i)) b.samples.push_back(Sample{10, 10 * t});
    SamplingConfig config = c.sampling;
    if (!Analyze(b.samples, b.sampling_mode, b.elements_per_iteration, config, &b).ok()) std::abort();
    r.benchmarks.push_back(std::move(b));
  }
  return r;
}

PhaseResult SyntheticPhase(const std::string& phase, const std::string& engine, double ops_per_sec, double p99_ns,
                           double cv, size_t seconds, uint64_t seed) {
  PhaseResult p;
  p.suite = "ycsb";
  p.workload = "workloada";
  p.phase = phase;
  p.engine = engine;
  p.dataset = "cached";
  p.parameters = {{"records", "100000"}, {"distribution", "zipfian"}};
  p.threads = 4;
  const std::vector<double> rates = LognormalTimes(ops_per_sec, cv, seconds, seed);
  const std::vector<double> p99s = LognormalTimes(p99_ns, cv, seconds, seed + 1);
  for (size_t i = 0; i < seconds; ++i) {
    const auto ops = static_cast<uint64_t>(rates[i]);
    p.per_second.push_back(SecondSample{static_cast<double>(i), ops, rates[i], p99s[i]});
    p.operations += ops;
  }
  p.duration_ns = static_cast<double>(seconds) * 1e9;
  // The merged histogram's p99: here the operations-weighted mean of the per-second p99s.
  double weighted = 0;
  for (const SecondSample& s : p.per_second) weighted += s.p99_ns * static_cast<double>(s.operations);
  p.service_time.count = p.operations;
  p.service_time.p99_ns = p.operations > 0 ? weighted / static_cast<double>(p.operations) : 0;
  p.throughput_ops_per_sec = static_cast<double>(p.operations) / static_cast<double>(seconds);
  return p;
}

}  // namespace dbxb::testdata
