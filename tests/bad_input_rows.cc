#include "tests/bad_input_rows.h"

#include <utility>
#include <vector>

namespace dbxb::test {
namespace {

using Defaults = std::vector<std::pair<const char*, const char*>>;

// "run <args>" plus `defaults` for every option the row does not set itself, so that a row the
// tool wrongly accepts finishes in a moment (and then fails the row) instead of running a default
// suite for minutes.
std::string WithDefaults(const std::string& args, const Defaults& defaults) {
  std::string cmd = "run " + args;
  for (const auto& [option, value] : defaults)
    if ((" " + args + " ").find(std::string(" ") + option + " ") == std::string::npos)
      cmd += std::string(" ") + option + (*value ? std::string(" ") + value : "");
  return cmd;
}

// The sampled dbx-micro suite.
std::string Run(const std::string& args) {
  return WithDefaults(args, {{"--engines", "null"},
                             {"--records", "100"},
                             {"--warmup", "1ms"},
                             {"--measurement", "1ms"},
                             {"--samples", "10"},
                             {"--resamples", "1000"},
                             {"--out", "{out}"},
                             {"--data-dir", "{data}"},
                             {"--no-overhead", ""}});
}

// The ycsb phase suite (a --workload file), and sqlite-vps.
std::string Ycsb(const std::string& args) {
  return WithDefaults(args, {{"--workload", "{ycsb}/workloadc"},
                             {"--engines", "null"},
                             {"--records", "100"},
                             {"--operations", "100"},
                             {"--out", "{out}"},
                             {"--data-dir", "{data}"}});
}
std::string Vps(const std::string& args) {
  return WithDefaults("--suite sqlite-vps " + args, {{"--engines", "sqlite"},
                                                     {"--records", "1000"},
                                                     {"--operations", "100"},
                                                     {"--out", "{out}"},
                                                     {"--data-dir", "{data}"}});
}

const char* const kGood = "{fx}/valid_results.json";

std::string Compare(const std::string& args) { return "compare " + args; }
std::string CompareWith(const std::string& current) { return Compare(std::string(kGood) + " " + current); }
std::string Report(const std::string& args) { return "report " + args; }

// `ab` of the tool against itself, with `options` before -- and run arguments that would finish in a
// moment if a row were wrongly accepted.
const char* const kAbRun =
    "--engines null --records 100 --warmup 1ms --measurement 1ms --samples 10 --resamples 1000 "
    "--no-overhead --data-dir {data}";
std::string Ab(const std::string& options, const std::string& run_args = kAbRun) {
  return "ab --baseline-bin {tool} --current-bin {tool} --rounds 2 " + options + " -- " + run_args;
}

}  // namespace

std::vector<BadInputRow> BadInputRows() {
  std::vector<BadInputRow> rows = {
      // --- The command line itself ---
      {"NoCommand", "", "subcommand"},
      {"UnknownCommand", "frobnicate", "frobnicate"},
      {"UnknownRunFlag", Run("--nosuchflag"), "--nosuchflag"},
      {"RunPositional", Run("extra"), "extra"},
      {"RunOptionWithoutValue", "run --out", "--out"},
      {"RunOptionTwice", Run("--records 1k --records 2k"), "--records"},
      {"ListExtraArgument", "list extra", "extra"},
      {"ListUnknownFlag", "list --bogus", "--bogus"},

      // --- Counts: zero, negative, huge, not numbers ---
      {"RecordsZero", Run("--records 0"), "--records"},
      {"RecordsNegative", Run("--records -5"), "--records"},
      {"RecordsNotANumber", Run("--records abc"), "--records"},
      {"RecordsOverflowsUint64", Run("--records 99999999999999999999999"), "--records"},
      {"RecordsAboveMaximum", Run("--records 200M"), "--records"},
      {"RecordsFraction", Run("--records 1.5k"), "--records"},
      {"RecordsTrailingJunk", Run("--records 10k10"), "--records"},
      {"RecordsSuffixOverflow", Run("--records 99999999999G"), "--records"},
      {"KeySizeBelowMinimum", Run("--key-size 4"), "--key-size"},
      {"KeySizeHuge", Run("--key-size 2000000"), "--key-size"},
      {"ValueSizeBelowMinimum", Run("--value-size 18"), "--value-size"},
      {"ValueSizeNegative", Run("--value-size -100"), "--value-size"},
      {"DataSetTooLarge", Run("--records 1M --value-size 67108864"), "--records"},
      {"SamplesBelowMinimum", Run("--samples 3"), "--samples"},
      {"SamplesFraction", Run("--samples 10.5"), "--samples"},
      {"SamplesHuge", Run("--samples 1000001"), "--samples"},
      {"ResamplesTooFew", Run("--resamples 5"), "--resamples"},
      {"EngineOptionNoValue", Run("--engine-option sqlite.layout"), "--engine-option"},
      {"EngineOptionNoEngine", Run("--engine-option layout=rowid"), "--engine-option"},
      {"EngineOptionUnknownEngine", Run("--engine-option mongo.layout=rowid"), "--engine-option"},
      {"EngineOptionUnknownSetting", Run("--engine-option sqlite.journal_mode=delete"), "--engine-option"},
      {"EngineOptionBadValue", Run("--engine-option sqlite.layout=heap"), "--engine-option"},
      {"EngineOptionBadDbxValue", Run("--engine-option dbx.release_freed_memory=yes"), "--engine-option"},
      {"EngineOptionBadDbxBlockSize", Run("--engine-option dbx.block_size=8k"), "dbx.block_size"},
      {"EngineOptionBadRocksdbValue", Run("--engine-option rocksdb.compression=snapy"), "rocksdb.compression"},
      {"SeedNotANumber", Run("--seed x"), "--seed"},
      {"SeedNegative", Run("--seed -1"), "--seed"},
      {"SeedOverflowsUint64", Run("--seed 18446744073709551616"), "--seed"},
      {"CacheSizeUnknownUnit", Run("--cache-size 12XB"), "--cache-size"},
      {"CacheSizeZero", Run("--cache-size 0"), "--cache-size"},
      {"CacheSizeHuge", Run("--cache-size 2TiB"), "--cache-size"},
      {"CacheSizeExponent", Run("--cache-size 1e3"), "--cache-size"},

      // --- Durations ---
      {"WarmupUnknownUnit", Run("--warmup 5x"), "--warmup"},
      {"WarmupNegative", Run("--warmup -1s"), "--warmup"},
      {"WarmupNan", Run("--warmup nan"), "--warmup"},
      {"WarmupInf", Run("--warmup inf"), "--warmup"},
      {"MeasurementZero", Run("--measurement 0"), "--measurement"},
      {"MeasurementLongerThanAWeek", Run("--measurement 100000000000000h"), "--measurement"},
      {"MeasurementExponentOverflow", Run("--measurement 1e400s"), "--measurement"},
      {"MeasurementNegative", Run("--measurement -1s"), "--measurement"},

      // --- Names: engines, suites, workloads, formats, levels ---
      {"UnknownEngine", Run("--engines nosuch"), "nosuch"},
      {"EngineTwice", Run("--engines sqlite,sqlite"), "sqlite"},
      {"EngineListOnlyComma", Run("--engines ,"), "--engines"},
      {"EngineListTrailingComma", Run("--engines null,"), "--engines"},
      {"UnknownSuite", Run("--suite nosuch"), "nosuch"},
      {"UnknownWorkload", Run("--workloads insert,fly"), "fly"},
      {"WorkloadTwice", Run("--workloads get,get"), "get"},
      {"UnknownFormat", Run("--format xml"), "xml"},
      {"EmptyFormat", Run("--format ''"), "--format"},
      {"FormatTrailingComma", Run("--format json,"), "--format"},
      {"UnknownDurability", Run("--durability sometimes"), "sometimes"},
      {"DurabilityWrongCase", Run("--durability FULL"), "--durability"},
      {"UnknownSamplingMode", Run("--sampling weird"), "--sampling"},
      {"BaselineSaveNameWithSlash", Run("--save-baseline a/b"), "--save-baseline"},
      {"BaselineSaveNameDotDot", Run("--save-baseline .."), "--save-baseline"},

      // --- Conflicting options ---
      {"BaselineEngineNotRun", Run("--baseline lmdb --engines sqlite"), "--baseline"},
      {"BaselineEngineUnknown", Run("--baseline nosuch"), "--baseline"},

      // --- Output and data directories (we run as root: permissions do not stop us, so these use
      // files where directories should be, paths under files and kernel file systems) ---
      {"OutIsAFile", Run("--out {file}"), "--out"},
      {"OutUnderAFile", Run("--out {file}/sub"), "--out"},
      {"OutIsACharacterDevice", Run("--out /dev/null"), "--out"},
      {"OutUnderProc", Run("--out /proc/dbxb-no-such-dir/out"), "--out"},
      {"OutUnderAProcFile", Run("--out /proc/self/status/out"), "--out"},
      {"OutInSysfs", Run("--out /sys/kernel/dbxb-out"), "--out"},
      {"DataDirIsAFileWithEarlierOut", Run("--data-dir {file} --out {prev}"), "--data-dir"},
      {"DataDirUnderAFileWithEarlierOut", Run("--data-dir {file}/sub --out {prev}"), "--data-dir"},
      {"DataDirUnderProcWithEarlierOut", Run("--data-dir /proc/dbxb-no-such-dir --out {prev}"), "--data-dir"},
      {"DataDirInSysfsWithEarlierOut", Run("--data-dir /sys/kernel --out {prev}"), "--data-dir"},
      {"BadValueWithEarlierOut", Run("--records 0 --out {prev}"), "--records"},
      {"BadEngineWithEarlierOut", Run("--engines nosuch --out {prev}"), "nosuch"},

      // --- YCSB workload files (ours and YCSB's): missing keys, proportions, sizes, distributions, garbage ---
      {"YcsbBadBoolean", Ycsb("--workload {ycsb}/testdata/bad_boolean"), "bad_boolean"},
      {"YcsbBinaryGarbage", Ycsb("--workload {ycsb}/testdata/binary_garbage"), "binary_garbage"},
      {"YcsbExponentialDistribution", Ycsb("--workload {ycsb}/testdata/exponential_distribution"), "exponential"},
      {"YcsbHistogramFieldLength", Ycsb("--workload {ycsb}/testdata/field_length_histogram"), "histogram"},
      {"YcsbInsertCountBeyondRecords", Ycsb("--workload {ycsb}/testdata/insertcount_beyond_recordcount"),
       "insertcount"},
      {"YcsbMalformedUnicodeEscape", Ycsb("--workload {ycsb}/testdata/malformed_unicode_escape"),
       "malformed_unicode_escape"},
      {"YcsbMinFieldLengthAboveMax", Ycsb("--workload {ycsb}/testdata/min_field_length_above_max"), "minfieldlength"},
      {"YcsbNegativeRecordCount", Ycsb("--workload {ycsb}/testdata/negative_recordcount"), "recordcount"},
      {"YcsbNoRecordCount", Ycsb("--workload {ycsb}/testdata/no_recordcount"), "recordcount"},
      {"YcsbNonNumericOperationCount", Ycsb("--workload {ycsb}/testdata/nonnumeric_operationcount"), "operationcount"},
      {"YcsbProportionAboveOne", Ycsb("--workload {ycsb}/testdata/proportion_above_one"), "readproportion"},
      {"YcsbProportionsDoNotSumToOne", Ycsb("--workload {ycsb}/testdata/proportions_do_not_sum_to_one"), "sum"},
      {"YcsbScansWithoutLength", Ycsb("--workload {ycsb}/testdata/scans_without_length"), "maxscanlength"},
      {"YcsbUnknownDistribution", Ycsb("--workload {ycsb}/testdata/unknown_distribution"), "gaussian"},
      {"YcsbNegativeFieldLength", Ycsb("--workload {fx}/ycsb_negative_fieldlength"), "fieldlength"},
      {"YcsbUnknownWorkloadClass", Ycsb("--workload {fx}/ycsb_unknown_workload_class"), "com.example.MyWorkload"},
      {"YcsbEmptyFile", Ycsb("--workload {fx}/ycsb_empty"), "ycsb_empty"},
      {"YcsbRecordCountOverflow", Ycsb("--workload {fx}/ycsb_recordcount_overflow"), "recordcount"},
      {"YcsbNanProportion", Ycsb("--workload {fx}/ycsb_nan_proportion"), "readproportion"},
      {"YcsbNegativeProportion", Ycsb("--workload {fx}/ycsb_negative_proportion"), "proportion"},
      {"YcsbEmptyDistribution", Ycsb("--workload {fx}/ycsb_empty_distribution"), "requestdistribution"},
      {"YcsbMissingFile", Ycsb("--workload {tmp}/no-such-workload"), "no-such-workload"},
      {"YcsbDirectoryAsFile", Ycsb("--workload {data}"), "not a regular file"},
      {"YcsbCharacterDevice", Ycsb("--workload /dev/zero"), "/dev/zero"},
      {"YcsbPathUnderAFile", Ycsb("--workload {file}/workloada"), "workloada"},
      {"YcsbSecondFileBad", Ycsb("--workload {ycsb}/workloada,{ycsb}/testdata/negative_recordcount"),
       "negative_recordcount"},

      // --- Phase-suite options: values and conflicts ---
      {"YcsbWithoutWorkloadFile", "run --suite ycsb --engines null --out {out} --data-dir {data}", "--workload"},
      {"YcsbWithWorkloads", Ycsb("--workloads get"), "--workloads"},
      {"YcsbWithReaders", Ycsb("--readers 2"), "--readers"},
      {"YcsbWithDataset", Ycsb("--dataset cached"), "--dataset"},
      {"YcsbWithWarmup", Ycsb("--warmup 1s"), "--warmup"},
      {"YcsbWithKeySize", Ycsb("--key-size 16"), "--key-size"},
      {"WorkloadFileWithMicroSuite", Ycsb("--suite dbx-micro"), "--workload"},
      {"MicroWithThreads", Run("--threads 4"), "--threads"},
      {"MicroWithOperations", Run("--operations 1000"), "--operations"},
      {"ThreadsZero", Ycsb("--threads 0"), "--threads"},
      {"ThreadsHuge", Ycsb("--threads 5000"), "--threads"},
      {"ThreadsNotANumber", Ycsb("--threads x"), "--threads"},
      {"OperationsZero", Ycsb("--operations 0"), "--operations"},
      {"OperationsNegative", Ycsb("--operations -10"), "--operations"},
      {"PhaseRecordsZero", Ycsb("--records 0"), "--records"},
      {"DurationUnknownUnit", Ycsb("--duration 5x"), "--duration"},
      {"DurationZero", Ycsb("--duration 0"), "--duration"},
      {"PhaseWarmupNegative", Ycsb("--phase-warmup -1s"), "--phase-warmup"},
      {"TargetRateZero", Ycsb("--target-rate 0"), "--target-rate"},
      {"TargetRateNegative", Ycsb("--target-rate -5"), "--target-rate"},
      {"TargetRateNotANumber", Ycsb("--target-rate fast"), "--target-rate"},
      {"LoadBatchZero", Ycsb("--load-batch 0"), "--load-batch"},
      {"RawLatenciesIsADirectory", Ycsb("--raw-latencies {data}/"), "--raw-latencies"},
      {"RawLatenciesUnderAFile", Ycsb("--raw-latencies {file}/latencies.csv"), "--raw-latencies"},
      {"RawLatenciesUnderProc", Ycsb("--raw-latencies /proc/dbxb-latencies.csv"), "--raw-latencies"},
      {"RawLatenciesInMissingDir", Ycsb("--raw-latencies {out}/latencies.csv"), "--raw-latencies"},
      {"TargetRateOverflow", Ycsb("--target-rate 1e400"), "--target-rate"},
      {"ThreadsAboveMaximum", Ycsb("--threads 1025"), "--threads"},
      {"VpsDatasetList", Vps("--dataset both,cached"), "--dataset"},
      {"VpsRecordsBelowRangeLength", Vps("--records 5 --range-length 10"), "--range-length"},
      {"SaveBaselineWithOutUnderAFile", Run("--save-baseline ok --out {file}/out"), "--out"},
      {"VpsUnknownDataset", Vps("--dataset huge"), "--dataset"},
      {"VpsMemoryLimitTooSmall", Vps("--dataset disk-bound --memory-limit 1MiB"), "--memory-limit"},
      {"VpsMemoryLimitUnknownUnit", Vps("--memory-limit 12XB"), "--memory-limit"},
      {"VpsRangeLengthZero", Vps("--range-length 0"), "--range-length"},
      {"VpsUnknownPhase", Vps("--workloads fly"), "fly"},
      {"VpsReadersZero", Vps("--readers 0"), "--readers"},
      {"VpsWritersNotANumber", Vps("--writers x"), "--writers"},
      {"VpsWithWorkloadFile", Vps("--workload {ycsb}/workloada"), "--workload"},
      {"VpsWithSamples", Vps("--samples 20"), "--samples"},
      {"VpsOnTheNullEngine", Vps("--engines null"), "--engines null"},
      {"VpsNullAmongEngines", Vps("--engines sqlite,null"), "--engines null"},

      // --- compare: arguments ---
      {"CompareNoFiles", Compare(""), "results files"},
      {"CompareOneFile", Compare(kGood), "results files"},
      {"CompareThreeFiles", Compare(std::string(kGood) + " " + kGood + " " + kGood), "3 files"},
      {"CompareNamedBaselineAndTwoFiles", Compare(std::string("--baseline x ") + kGood + " " + kGood), "--baseline"},
      {"CompareBaselineNameWithDotDot", Compare(std::string("--baseline ../x ") + kGood), "--baseline"},
      {"CompareBaselineNotSaved", Compare(std::string("--results-root {tmp} --baseline nosuch ") + kGood), "nosuch"},
      {"CompareMaxRegressionUnit", CompareWith(std::string(kGood) + " --max-regression 5x"), "--max-regression"},
      {"CompareMaxRegressionNegative", CompareWith(std::string(kGood) + " --max-regression -5%"), "--max-regression"},
      {"CompareMaxRegressionEmpty", CompareWith(std::string(kGood) + " --max-regression ''"), "--max-regression"},
      {"CompareSignificanceAboveOne", CompareWith(std::string(kGood) + " --significance 2"), "--significance"},
      {"CompareSignificanceZero", CompareWith(std::string(kGood) + " --significance 0"), "--significance"},
      {"CompareNoiseNotANumber", CompareWith(std::string(kGood) + " --noise-threshold abc"), "--noise-threshold"},
      {"CompareResamplesZero", CompareWith(std::string(kGood) + " --resamples 0"), "--resamples"},
      {"CompareSeedNotANumber", CompareWith(std::string(kGood) + " --seed x"), "--seed"},
      {"CompareMarkdownUnderAFile", CompareWith(std::string(kGood) + " --markdown {file}/cmp.md"), "--markdown"},
      {"CompareMarkdownInMissingDir", CompareWith(std::string(kGood) + " --markdown {out}/cmp.md"), "--markdown"},
      {"CompareMarkdownIsADirectory", CompareWith(std::string(kGood) + " --markdown {prev}"), "--markdown"},
      {"CompareJsonUnderProc", CompareWith(std::string(kGood) + " --json /proc/dbxb-cmp.json"), "--json"},

      // --- compare: results files (truncated, wrong schema version, wrong types, missing fields) ---
      {"CompareMissingFile", CompareWith("{tmp}/no-such-results.json"), "no-such-results.json"},
      {"CompareDirWithoutResults", CompareWith("{data}"), "results.json"},
      {"CompareTruncated", CompareWith("{fx}/truncated_results.json"), "truncated_results.json"},
      {"CompareEmptyFile", CompareWith("{fx}/empty.json"), "empty.json"},
      {"CompareBinaryGarbage", CompareWith("{fx}/binary_garbage.json"), "binary_garbage.json"},
      {"CompareNulInside", CompareWith("{fx}/nul_inside.json"), "nul_inside.json"},
      {"CompareTopLevelArray", CompareWith("{fx}/top_level_array.json"), "top_level_array.json"},
      {"CompareSchemaVersion99", CompareWith("{fx}/schema_version_99.json"), "schema_version"},
      {"CompareSchemaVersionString", CompareWith("{fx}/schema_version_string.json"), "schema_version"},
      {"CompareWrongType", CompareWith("{fx}/wrong_type_iterations.json"), "iterations"},
      {"CompareNegativeCount", CompareWith("{fx}/negative_iterations.json"), "iterations"},
      {"CompareMissingEngine", CompareWith("{fx}/missing_engine.json"), "engine"},
      {"CompareMissingContext", CompareWith("{fx}/missing_context.json"), "context"},
      {"CompareBenchmarksNotAList", CompareWith("{fx}/benchmarks_not_a_list.json"), "benchmarks"},
      {"CompareBadBaselineFile", Compare(std::string("{fx}/truncated_results.json ") + kGood),
       "truncated_results.json"},
      {"CompareNoBenchmarkInCommon", CompareWith("{fx}/no_common_benchmark.json"), "in common"},
      {"CompareAFileAsResultsDirectory", CompareWith("{file}"), "file"},

      // --- ab: options, binaries, run arguments, and binaries that fail ---
      {"AbWithoutBinaries", "ab -- " + std::string(kAbRun), "--baseline-bin"},
      {"AbBaselineBinMissing", "ab --baseline-bin {tmp}/nosuch --current-bin {tool} -- " + std::string(kAbRun),
       "nosuch"},
      {"AbCurrentBinNotExecutable", "ab --baseline-bin {tool} --current-bin {file} -- " + std::string(kAbRun),
       "--current-bin"},
      {"AbCurrentBinIsADirectory", "ab --baseline-bin {tool} --current-bin {data} -- " + std::string(kAbRun),
       "--current-bin"},
      {"AbRoundsOne", Ab("--rounds 1 --out {out}"), "--rounds"},
      {"AbRoundsNotANumber", Ab("--rounds x --out {out}"), "--rounds"},
      {"AbRoundsHuge", Ab("--rounds 1000000 --out {out}"), "--rounds"},
      {"AbMaxRegressionUnit", Ab("--max-regression 5x --out {out}"), "--max-regression"},
      {"AbResamplesTooFew", Ab("--resamples 5 --out {out}"), "--resamples"},
      {"AbMarkdownInMissingDir", Ab("--markdown {out}/ab.md"), "--markdown"},
      {"AbOutHoldsEarlierResults", Ab("--out {prev}"), "--out"},
      {"AbOutIsAFile", Ab("--out {file}"), "--out"},
      {"AbNoRunArguments", "ab --baseline-bin {tool} --current-bin {tool} --out {out}", "run arguments"},
      {"AbRunArgumentsSetOut", Ab("--out {out}", std::string(kAbRun) + " --out {out}"), "--out"},
      {"AbRunArgumentsSaveBaseline", Ab("--out {out}", std::string(kAbRun) + " --save-baseline x"), "--save-baseline"},
      {"AbRunArgumentsWithoutJson", Ab("--out {out}", std::string(kAbRun) + " --format md"), "--format"},
      {"AbBinaryRejectsRunArguments", Ab("--out {out}", "--engines nosuch --data-dir {data}"), "nosuch"},
      {"AbBinaryFailsARound", "ab --baseline-bin /bin/false --current-bin {tool} --out {out} -- " + std::string(kAbRun),
       "/bin/false"},

      // --- report ---
      {"ReportNoFiles", Report("-o {out}"), "results file"},
      {"ReportNoOutput", Report(kGood), "-o"},
      {"ReportMissingFile", Report("{tmp}/no-such-results.json -o {out}"), "no-such-results.json"},
      {"ReportTruncated", Report("{fx}/truncated_results.json -o {out}"), "truncated_results.json"},
      {"ReportSchemaVersion99", Report("{fx}/schema_version_99.json -o {out}"), "schema_version"},
      {"ReportWrongType", Report("{fx}/wrong_type_iterations.json -o {out}"), "iterations"},
      {"ReportMissingField", Report("{fx}/missing_engine.json -o {out}"), "engine"},
      {"ReportBinaryGarbage", Report("{fx}/binary_garbage.json -o {out}"), "binary_garbage.json"},
      {"ReportSecondFileBad", Report(std::string(kGood) + " {fx}/empty.json -o {out}"), "empty.json"},
      {"ReportDirWithoutResults", Report("{data} -o {out}"), "results.json"},
      {"ReportOutIsAFile", Report(std::string(kGood) + " -o {file}"), "-o"},
      {"ReportOutUnderAFile", Report(std::string(kGood) + " -o {file}/sub"), "-o"},
      {"ReportOutUnderProc", Report(std::string(kGood) + " -o /proc/dbxb-report"), "-o"},
      {"ReportBadFileWithEarlierOut", Report("{fx}/truncated_results.json -o {prev}"), "truncated_results.json"},
      // --- calibrate ---
      {"CalibrateTooFewRounds", "calibrate --engines sqlite --rounds 2", "--rounds"},
      {"CalibrateZeroRecords", "calibrate --engines sqlite --records 0", "--records"},
      {"CalibrateUnknownEngine", "calibrate --engines nosuch", "nosuch"},
      {"CalibrateNullEngine", "calibrate --engines null", "null"},
      {"CalibrateDataDirIsAFile", "calibrate --engines sqlite --data-dir {file}", "--data-dir"},
      // Empty values are refused, never read as "use the default" (cli/main.cc).
      {"EmptyEngineList", Run("--engines ''"), "--engines"},
      {"EmptyWorkloadList", Run("--workloads ''"), "--workloads"},
      {"EmptyDurability", Run("--durability ''"), "--durability"},
      {"EmptyRecords", Run("--records ''"), "--records"},
      {"EmptySuite", Run("--suite ''"), "--suite"},
      {"EmptyWarmup", Run("--warmup ''"), "--warmup"},
      {"EmptyMeasurement", Run("--measurement ''"), "--measurement"},
      {"EmptySamples", Run("--samples ''"), "--samples"},
      {"EmptyResamples", Run("--resamples ''"), "--resamples"},
      {"EmptySamplingMode", Run("--sampling ''"), "--sampling"},
      {"EmptyOut", Run("--out ''"), "--out"},
      {"EmptyDataDir", Run("--data-dir ''"), "--data-dir"},
      {"YcsbEmptyListItem", Ycsb("--workload {ycsb}/workloada,"), "--workload"},
      {"EmptySaveBaselineName", Run("--save-baseline ''"), "--save-baseline"},
      {"UnknownTopLevelFlag", "--bogus", "--bogus"},
      // A bad --data-dir is found before --out is created.
      {"DataDirIsAFile", Run("--data-dir {file}"), "--data-dir"},
      {"DataDirUnderProc", Run("--data-dir /proc/dbxb-no-such-dir"), "--data-dir"},
      {"ReportUnknownBaselineEngine", Report(std::string(kGood) + " --baseline nosuch -o {out}"), "--baseline"},
      {"CompareEmptyFileName", Compare(std::string("'' ") + kGood), "empty"},

      // --- hdr-log and merge (harness/hdr_log_writer.h, cli/merge_command.h) ---
      {"HdrLogForDbxMicro", Run("--hdr-log {tmp}/logs"), "--hdr-log"},
      {"HdrLogUnderAFile", Vps("--hdr-log {file}/sub"), "--hdr-log"},
      {"EmptyHdrLog", Vps("--hdr-log ''"), "--hdr-log"},
      {"MergeOneInput", "merge {fx}/valid_results.json -o {tmp}/m.json", "two inputs"},
      {"MergeNoOutput", "merge {fx}/valid_results.json {fx}/valid_results.json", "-o"},
      {"MergeMissingFile", "merge {fx}/valid_results.json {tmp}/no-such.json -o {tmp}/m.json", "no-such.json"},
      {"MergeTruncated", "merge {fx}/valid_results.json {fx}/truncated_results.json -o {tmp}/m.json",
       "truncated_results.json"},
      {"MergeMicroBenchmarks", "merge {fx}/valid_results.json {fx}/valid_results.json -o {tmp}/m.json", "dbx-micro"},
      {"MergeOutIsAnInput", "merge {fx}/valid_results.json {fx}/empty.json -o {fx}/valid_results.json", "-o"},
      {"MergeOutDirMissing", "merge {fx}/valid_results.json {fx}/valid_results.json -o {tmp}/no/such/m.json", "-o"},
      {"MergeResultsAndLog", "merge {fx}/valid_results.json {fx}/corrupt.hlog -o {tmp}/m.json", "corrupt.hlog"},
      {"MergeCorruptLog", "merge {fx}/corrupt.hlog {fx}/corrupt.hlog -o {tmp}/m.hlog", "corrupt.hlog"},
  };
  return rows;
}

}  // namespace dbxb::test
