// HdrHistogram interval logs: the text format of HdrHistogram's HistogramLogWriter (log format 1.3),
// which its HistogramLogReader, HistogramLogProcessor and plotters read, and which YCSB writes.
//
//   #<free comments>
//   #[Histogram log format version 1.3]
//   #[StartTime: 1764580496.250 (seconds since epoch), Tue Dec 01 09:14:56 UTC 2026]
//   #[BaseTime: 1764580496.250 (seconds since epoch)]
//   "StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"
//   [Tag=NAME,]START,LENGTH,MAX,BASE64
//
// START is seconds since BaseTime, LENGTH seconds, MAX the interval's largest value divided by the
// max-value unit ratio (10^6, HistogramLogWriter's default: nanoseconds are written as milliseconds),
// BASE64 the interval's histogram in the V2 compressed encoding (records/hdr_encoding.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "records/interval_recorder.h"
#include "records/latency_histogram.h"
#include "records/result.h"

namespace dbxb {

/// One interval line.
struct HdrLogInterval {
  std::string tag;     ///< "" = untagged
  double start_s = 0;  ///< since the log's base time
  double length_s = 0;
  LatencyHistogram histogram;
};

/// A whole log: its header and its intervals in the order written.
struct HdrLog {
  std::vector<std::string> comments;  ///< free comment lines, without the leading '#'
  double start_unix_s = 0;            ///< StartTime and BaseTime (0 = unknown: no BaseTime written)
  std::vector<HdrLogInterval> intervals;
};

/// The unit ratio of Interval_Max: values are nanoseconds, the column milliseconds.
inline constexpr double kHdrLogMaxValueUnitRatio = 1e6;

/// The log as HistogramLogWriter writes it.
std::string FormatHdrLog(const HdrLog& log);

/// Reads a log written by FormatHdrLog or by HdrHistogram itself (any implementation writing format 1.2
/// or 1.3 with V2 histograms). Start timestamps are made relative to BaseTime when the file gives one
/// (absolute timestamps otherwise stay as written). Corruption naming the line for anything unreadable.
Result<HdrLog> ParseHdrLog(std::string_view text);

/// `name` made usable as a log tag (HdrHistogram forbids ',' and whitespace): every character outside
/// [A-Za-z0-9._:-] becomes '_'.
std::string HdrLogTag(std::string_view name);

/// The log of one measured phase: untagged lines hold every operation type's service time, `Tag=<op>`
/// lines one type's, and in open loop `Tag=intended` / `Tag=intended.<op>` the latency from the intended
/// start. One line per interval up to the phase's last completion (the last one as long as it really
/// was); operation types without operations are left out. `service` and `from_intended` are per operation
/// type in r.per_op order (from_intended empty in closed loop).
HdrLog PhaseHdrLog(const PhaseResult& r, const std::vector<IntervalRecorder>& service,
                   const std::vector<IntervalRecorder>& from_intended);

/// The file name of a phase's log: suite, workload, phase, engine and data set joined by '.', ".hlog".
std::string PhaseHdrLogFileName(const PhaseResult& r);

}  // namespace dbxb
