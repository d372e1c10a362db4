#include "records/phase_merge.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "records/hdr_encoding.h"
#include "records/record_names.h"

namespace dbxb {
namespace {

using PhaseKey = std::tuple<std::string, std::string, std::string, std::string, std::string>;

PhaseKey KeyOf(const PhaseResult& p) { return {p.suite, p.workload, p.phase, p.engine, p.dataset}; }

// Configuration that may differ between the clients of one test or between repeated runs.
const std::set<std::string>& MayDiffer() {
  static const std::set<std::string> keys = {"out_dir",
                                             "data_dir",
                                             "data_dir_filesystem",
                                             "raw_latencies",
                                             "hdr_log",
                                             "seed",
                                             "formats",
                                             "baseline",
                                             "latency_clock",
                                             "threads",
                                             "readers",
                                             "writers",
                                             "operations",
                                             "duration_seconds",
                                             "target_rate",
                                             "phase_warmup_seconds",
                                             "workload_files",
                                             "client"};
  return keys;
}

std::string Value(const KeyValues& kv, const std::string& key) {
  for (const auto& [k, v] : kv)
    if (k == key) return v;
  return "(not set)";
}

// The first key whose value differs between a and b (ignoring `skip`), as "key is X in A, Y in B".
std::string FirstDifference(const KeyValues& a, const KeyValues& b, const std::string& name_a,
                            const std::string& name_b, const std::set<std::string>& skip = {}) {
  std::set<std::string> keys;
  for (const auto& kv : {a, b})
    for (const auto& [k, v] : kv) keys.insert(k);
  for (const std::string& k : keys) {
    if (skip.count(k)) continue;
    const std::string va = Value(a, k), vb = Value(b, k);
    if (va != vb) return fmt::format("{} is '{}' in {}, '{}' in {}", k, va, name_a, vb, name_b);
  }
  return "";
}

Status Mismatch(const std::string& what) { return Status::InvalidArgument("merge: " + what); }

Status CheckRuns(const MergeInput& first, const MergeInput& other) {
  const RunContext &a = first.results.context, &b = other.results.context;
  std::string diff = FirstDifference(a.configuration, b.configuration, first.file, other.file, MayDiffer());
  if (!diff.empty()) return Mismatch("the runs differ: " + diff);
  for (const LibraryInfo& la : a.libraries) {
    for (const LibraryInfo& lb : b.libraries) {
      if (la.engine == lb.engine && (la.version != lb.version || la.build != lb.build))
        return Mismatch(fmt::format("engine {} is {} ({}) in {}, {} ({}) in {}", la.engine, la.version, la.build,
                                    first.file, lb.version, lb.build, other.file));
    }
  }
  return Status::Ok();
}

Status CheckPhase(const PhaseResult& a, const std::string& file_a, const PhaseResult& b, const std::string& file_b) {
  const std::string name = PhaseName(a);
  std::string diff = FirstDifference(a.parameters, b.parameters, file_a, file_b);
  if (!diff.empty()) return Mismatch(fmt::format("phase {}: parameter {}", name, diff));
  diff = FirstDifference(a.engine_settings, b.engine_settings, file_a, file_b);
  if (!diff.empty()) return Mismatch(fmt::format("phase {}: engine setting {}", name, diff));
  if (a.rows_per_operation != b.rows_per_operation)
    return Mismatch(fmt::format("phase {}: {} rows per operation in {}, {} in {}", name, a.rows_per_operation, file_a,
                                b.rows_per_operation, file_b));
  std::vector<std::string> types_a, types_b;
  for (const auto& o : a.per_op) types_a.push_back(o.name);
  for (const auto& o : b.per_op) types_b.push_back(o.name);
  if (types_a != types_b)
    return Mismatch(fmt::format("phase {}: operation types {} in {}, {} in {}", name, fmt::join(types_a, ","), file_a,
                                fmt::join(types_b, ","), file_b));
  if (a.latency_from_intended_start.has_value() != b.latency_from_intended_start.has_value())
    return Mismatch(fmt::format("phase {}: open loop in {}, closed loop in {}", name,
                                a.latency_from_intended_start ? file_a : file_b,
                                a.latency_from_intended_start ? file_b : file_a));
  return Status::Ok();
}

// Adds one input's summary (histogram and exact extremes) into *h, tracking the extremes and the sum.
struct Accumulator {
  LatencyHistogram h;
  uint64_t min = UINT64_MAX, max = 0;
  long double sum = 0;
  Status Add(const LatencySummary& s, const std::string& what) {
    Result<LatencyHistogram> one = HistogramOf(s);
    if (!one.ok()) return Status::InvalidArgument(fmt::format("merge: {}: {}", what, one.status().message()));
    if (s.count == 0) return Status::Ok();
    h.Merge(one.value());
    min = std::min(min, one->Min());
    max = std::max(max, one->Max());
    sum += static_cast<long double>(s.mean_ns) * static_cast<long double>(s.count);
    return Status::Ok();
  }
  LatencySummary Summary() {
    if (h.Count() > 0) h.SetExactStatistics(min, max, static_cast<double>(sum / static_cast<long double>(h.Count())));
    return SummarizeLatency(h);
  }
};

// Zeroes the figures of *m (a copy of the first input) that MergePhase sums over the inputs.
void ClearSums(PhaseResult* m) {
  m->per_second.clear();
  m->merged_from.clear();
  m->threads = 0;
  m->warmup_operations = 0;
  m->operations = 0;
  m->target_rate = 0;
  m->incomplete = false;
  if (m->late_operations) m->late_operations = 0;  // the inputs' own counts are added below
}

// Adds one input's counts (threads, operations, late operations, target rate, incomplete) into *m.
void AddCounts(const PhaseResult& p, PhaseResult* m) {
  m->threads += p.threads;
  m->warmup_operations += p.warmup_operations;
  m->operations += p.operations;
  if (!p.late_operations)
    m->late_operations.reset();  // an input that did not count them: the sum would be short
  else if (m->late_operations)
    *m->late_operations += *p.late_operations;
  m->target_rate += p.target_rate;
  m->incomplete = m->incomplete || p.incomplete;
}

// The inputs' measured times: earliest and latest start and end, summed durations and rates.
struct TimeSpan {
  double first_start = INFINITY, last_start = -INFINITY, first_end = INFINITY, last_end = -INFINITY;
  double sum_duration = 0, sum_rate = 0;
  void Add(const PhaseResult& p) {
    const double end = p.start_unix_s + p.duration_ns / 1e9;
    first_start = std::min(first_start, p.start_unix_s);
    last_start = std::max(last_start, p.start_unix_s);
    first_end = std::min(first_end, end);
    last_end = std::max(last_end, end);
    sum_duration += p.duration_ns;
    sum_rate += p.throughput_ops_per_sec;
  }
};

Result<PhaseResult> MergePhase(const std::vector<const PhaseResult*>& parts, const std::vector<MergeInput>& inputs) {
  const PhaseResult& first = *parts[0];
  const std::string name = PhaseName(first);
  PhaseResult m = first;
  ClearSums(&m);

  Accumulator service, intended;
  std::vector<Accumulator> op_service(first.per_op.size()), op_intended(first.per_op.size());
  TimeSpan span;
  std::vector<double> op_rates(first.per_op.size(), 0);
  for (size_t i = 0; i < parts.size(); ++i) {
    const PhaseResult& p = *parts[i];
    const std::string what = fmt::format("{}: phase {}", inputs[i].file, name);
    if (p.error_occurred)
      return Mismatch(fmt::format("{} failed ({}); there is nothing to merge", what, p.error_message));
    if (i > 0) DBXB_RETURN_IF_ERROR(CheckPhase(first, inputs[0].file, p, inputs[i].file));
    DBXB_RETURN_IF_ERROR(service.Add(p.service_time, what + ": service_time"));
    if (p.latency_from_intended_start)
      DBXB_RETURN_IF_ERROR(intended.Add(*p.latency_from_intended_start, what + ": latency_from_intended_start"));
    for (size_t op = 0; op < p.per_op.size(); ++op) {
      const OpTypeResult& o = p.per_op[op];
      DBXB_RETURN_IF_ERROR(op_service[op].Add(o.service_time, what + ": " + o.name + ": service_time"));
      if (o.latency_from_intended_start)
        DBXB_RETURN_IF_ERROR(op_intended[op].Add(*o.latency_from_intended_start, what + ": " + o.name));
      op_rates[op] += o.throughput_ops_per_sec;
    }
    AddCounts(p, &m);
    span.Add(p);
    const std::string host = inputs[i].results.context.host_name;
    m.merged_from.push_back(
        {inputs[i].file, host, p.start_unix_s, p.duration_ns, p.threads, p.operations, p.throughput_ops_per_sec});
  }
  // Concurrent when some instant lies inside every input's measured time (and every start is known).
  bool starts_known = true;
  for (const PhaseResult* p : parts) starts_known = starts_known && p->start_unix_s > 0;
  const bool concurrent = starts_known && span.last_start < span.first_end;
  m.merged_throughput = concurrent ? "concurrent" : "sequential";
  m.start_unix_s = starts_known ? span.first_start : 0;
  m.duration_ns = concurrent ? (span.last_end - span.first_start) * 1e9 : span.sum_duration;
  const double seconds = m.duration_ns / 1e9;
  m.throughput_ops_per_sec =
      concurrent ? span.sum_rate : (seconds > 0 ? static_cast<double>(m.operations) / seconds : 0);

  m.service_time = service.Summary();
  if (first.latency_from_intended_start) m.latency_from_intended_start = intended.Summary();
  for (size_t op = 0; op < m.per_op.size(); ++op) {
    OpTypeResult& o = m.per_op[op];
    o.service_time = op_service[op].Summary();
    o.count = o.service_time.count;
    if (first.per_op[op].latency_from_intended_start) o.latency_from_intended_start = op_intended[op].Summary();
    o.throughput_ops_per_sec = concurrent ? op_rates[op] : (seconds > 0 ? static_cast<double>(o.count) / seconds : 0);
  }
  return m;
}

}  // namespace

Result<RunResults> MergeRuns(const std::vector<MergeInput>& inputs) {
  if (inputs.size() < 2)
    return Mismatch(fmt::format("give at least two results files to merge, got {}", inputs.size()));
  std::vector<std::map<PhaseKey, const PhaseResult*>> by_key(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const RunResults& r = inputs[i].results;
    if (!r.benchmarks.empty())
      return Mismatch(
          fmt::format("{} holds dbx-micro benchmarks (sampled, no histograms); merge combines the phase "
                      "suites (ycsb, sqlite-vps)",
                      inputs[i].file));
    // A search is one run's finding (its steps at the rates it chose): there is nothing to add up.
    if (!r.capacity.empty())
      return Mismatch(fmt::format(
          "{} holds {} capacity search{} (run --sla), which cannot be merged: each run's steps ran at rates of "
          "its own; merge the runs' phases without --sla",
          inputs[i].file, r.capacity.size(), r.capacity.size() == 1 ? "" : "es"));
    if (r.phases.empty()) return Mismatch(fmt::format("{} holds no phases", inputs[i].file));
    if (i > 0) DBXB_RETURN_IF_ERROR(CheckRuns(inputs[0], inputs[i]));
    for (const PhaseResult& p : r.phases) {
      if (!by_key[i].emplace(KeyOf(p), &p).second)
        return Mismatch(
            fmt::format("{} holds phase {} twice; merge its runs one by one", inputs[i].file, PhaseName(p)));
    }
  }
  for (size_t i = 1; i < inputs.size(); ++i) {
    for (const auto& [key, p] : by_key[0])
      if (!by_key[i].count(key))
        return Mismatch(fmt::format("phase {} is in {} but not in {}", PhaseName(*p), inputs[0].file, inputs[i].file));
    for (const auto& [key, p] : by_key[i])
      if (!by_key[0].count(key))
        return Mismatch(fmt::format("phase {} is in {} but not in {}", PhaseName(*p), inputs[i].file, inputs[0].file));
  }

  RunResults out;
  out.context = inputs[0].results.context;
  std::vector<std::string> hosts;
  for (const MergeInput& in : inputs) {
    const RunContext& c = in.results.context;
    if (std::find(hosts.begin(), hosts.end(), c.host_name) == hosts.end()) hosts.push_back(c.host_name);
    out.context.date_utc = std::min(out.context.date_utc, c.date_utc);
    out.context.incomplete = out.context.incomplete || c.incomplete;
    out.context.git_dirty = out.context.git_dirty || c.git_dirty;
    out.context.merged_files.push_back(in.file);
  }
  out.context.host_name = fmt::format("{}", fmt::join(hosts, "+"));
  for (const PhaseResult& p : inputs[0].results.phases) {  // in the first file's order
    std::vector<const PhaseResult*> parts;
    for (const auto& keyed : by_key) parts.push_back(keyed.at(KeyOf(p)));
    Result<PhaseResult> merged = MergePhase(parts, inputs);
    if (!merged.ok()) return merged.status();
    out.phases.push_back(std::move(merged.value()));
  }
  return out;
}

}  // namespace dbxb
