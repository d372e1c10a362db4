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

// The seed suite (fixed at the seed's 10,000 rows; sqlite is one of its engines without the Rust bridge).
std::string Seed(const std::string& args) {
  return WithDefaults("--suite seed " + args, {{"--engines", "sqlite"},
                                               {"--warmup", "1ms"},
                                               {"--measurement", "1ms"},
                                               {"--samples", "10"},
                                               {"--resamples", "1000"},
                                               {"--out", "{out}"},
                                               {"--data-dir", "{data}"}});
}

// sqlite-vps with a capacity search (no --operations: the search refuses it), one short phase.
std::string VpsSla(const std::string& args) {
  return WithDefaults("--suite sqlite-vps " + args, {{"--engines", "sqlite"},
                                                     {"--records", "1000"},
                                                     {"--workloads", "select-pk"},
                                                     {"--sla-step", "100ms"},
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
// `ab` with its own --rounds among `options`.
std::string AbRounds(const std::string& options) {
  return "ab --baseline-bin {tool} --current-bin {tool} " + options + " -- " + kAbRun;
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
      {"ListUnknownEngine", "list --engine nosuch", "nosuch"},

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
      // The Rust bridge's engines (also bad input, as an unknown engine, in a build without the bridge).
      {"EngineOptionUnknownSledSetting", Run("--engine-option sled.cache_capacity=1"), "sled.cache_capacity"},
      {"EngineOptionUnknownRedbSetting", Run("--engine-option redb.durability=none"), "redb.durability"},
      {"EngineOptionUnknownDbxCoreSetting", Run("--engine-option dbx-core.gpu=on"), "dbx-core.gpu"},
      {"EngineOptionBadSledValue", Run("--engine-option sled.flush_every_ms=0"), "sled.flush_every_ms"},
      {"EngineOptionBadSledMode", Run("--engine-option sled.mode=fast"), "sled.mode"},
      {"EngineOptionBadRedbValue", Run("--engine-option redb.two_phase_commit=yes"), "redb.two_phase_commit"},
      {"EngineOptionBadDbxCoreLevel", Run("--engine-option dbx-core.durability_level=paranoid"),
       "dbx-core.durability_level"},
      {"EngineOptionBadDbxCoreTable", Run("--engine-option dbx-core.table=a/b"), "dbx-core.table"},
      {"DbxCoreAtDurabilityFull", Run("--engines dbx-core --durability full"), "dbx-core"},
      {"SeedSuiteOnAnotherEngine", Seed("--engines lmdb"), "lmdb"},
      {"SeedSuiteWithRecords", Seed("--records 100"), "--records"},
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
      // A build variant the engine does not have: the line names the variant and the variants there are.
      {"UnknownVariant", Run("--engines sqlite@nosuch"), "no variant 'nosuch'"},
      // (without variants in the build, as the sanitizer builds are: an unknown engine, named the same way)
      {"VariantSettingUnderItsOwnName", Run("--engines sqlite --engine-option sqlite@debian.page_size=8192"),
       "sqlite@debian.page_size"},
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
      // files where directories should be, paths under files and kernel file systems). With --force, an
      // earlier run's results that the tool did not mark as its own would be replaced by a good run: a
      // bad --data-dir must still leave them untouched. ---
      {"OutIsAFile", Run("--out {file}"), "--out"},
      {"OutUnderAFile", Run("--out {file}/sub"), "--out"},
      {"OutIsACharacterDevice", Run("--out /dev/null"), "--out"},
      {"OutUnderProc", Run("--out /proc/dbxb-no-such-dir/out"), "--out"},
      {"OutUnderAProcFile", Run("--out /proc/self/status/out"), "--out"},
      {"OutInSysfs", Run("--out /sys/kernel/dbxb-out"), "--out"},
      {"DataDirIsAFileWithEarlierOut", Run("--data-dir {file} --out {prev} --force"), "--data-dir"},
      {"DataDirUnderAFileWithEarlierOut", Run("--data-dir {file}/sub --out {prev} --force"), "--data-dir"},
      {"DataDirUnderProcWithEarlierOut", Run("--data-dir /proc/dbxb-no-such-dir --out {prev} --force"), "--data-dir"},
      {"DataDirInSysfsWithEarlierOut", Run("--data-dir /sys/kernel --out {prev} --force"), "--data-dir"},
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

      // --- Sweeps (a list in a sweepable option) and capacity searches (--sla) ---
      {"SweepEmptyItem", Run("--workloads get --threads 1,,2"), "--threads"},
      {"SweepTrailingComma", Run("--workloads get --threads 1,"), "--threads"},
      {"SweepNotANumber", Run("--workloads get --threads 1,x"), "--threads"},
      {"SweepZero", Run("--workloads get --threads 0,1"), "--threads"},
      {"SweepValueTwice", Run("--records 1k,1000"), "--records"},
      {"SweepBadDurability", Run("--durability none,fast"), "--durability"},
      {"SweepBadCacheSize", Run("--cache-size 8MiB,big"), "--cache-size"},
      {"SweepThreeOptions", Run("--workloads get --threads 1,2 --records 100,200 --value-size 19,20"),
       "at most 2 options"},
      {"SweepTooManyValues", Run("--records 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17"), "at most 16"},
      {"SweepBothDimensionsOverLimits",
       Run("--workloads get --threads 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17 "
           "--records 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17"),
       "--threads has 17, --records has 17"},
      {"SweepTooManyPoints", Run("--workloads get --threads 1,2,3,4,5,6,7,8,9 --records 1,2,3,4,5,6,7,8"), "72 points"},
      {"SweepPointOutOfRange", Run("--workloads get --threads 1,2000"), "sweep point threads=2000: --threads"},
      {"SweepPointValueTooSmall", Run("--value-size 19,5"), "sweep point value_size=5: --value-size"},
      {"SweepOptionOfAnotherSuite", Run("--readers 1,2"), "--readers"},
      {"MicroThreadsWithInsert", Run("--threads 2"), "--threads"},
      {"SlaNotAnSla", VpsSla("--sla 99<=1ms"), "--sla"},
      {"SlaStrictLess", VpsSla("--sla p99<1ms"), "--sla"},
      {"SlaPercentileNotANumber", VpsSla("--sla pxx<=1ms"), "--sla"},
      {"SlaPercentileHundred", VpsSla("--sla p100<=1ms"), "--sla"},
      {"SlaPercentileZero", VpsSla("--sla p0<=1ms"), "--sla"},
      {"SlaPercentileBeyondTheHistogramsReach", VpsSla("--sla p99.999<=1ms"), "p99.999"},
      {"SlaNoRateMeetsZero", VpsSla("--sla p99<=0ms"), "no rate meets"},
      {"SlaNoRateMeetsNanoseconds", VpsSla("--sla p99<=100ns"), "no rate meets"},
      {"SlaBadBound", VpsSla("--sla p99<=soon"), "--sla"},
      {"SlaOnASampledSuite", Run("--sla p99<=1ms"), "--sla"},
      {"SlaWithTargetRate", VpsSla("--sla p99<=1ms --target-rate 100"), "--target-rate"},
      {"SlaWithOperations", VpsSla("--sla p99<=1ms --operations 100"), "--operations"},
      {"SlaWithRawLatencies", VpsSla("--sla p99<=1ms --raw-latencies {tmp}/raw.csv"), "--raw-latencies"},
      {"SlaUnknownLatency", VpsSla("--sla p99<=1ms --sla-latency wall"), "--sla-latency"},
      {"SlaLatencyWithoutSla", VpsSla("--sla-latency service"), "--sla-latency"},
      {"SlaStepTooShort", VpsSla("--sla p99<=1ms --sla-step 1ms"), "--sla-step"},
      {"SlaStepLongerThanTheLongest", VpsSla("--sla p99<=1ms --sla-step 5m"), "--sla-step"},

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
      {"CompareNoiseFloorNotANumber", CompareWith(std::string(kGood) + " --noise-floor abc"), "--noise-floor"},
      {"CompareNoiseFloorNegative", CompareWith(std::string(kGood) + " --noise-floor -1%"), "--noise-floor"},
      {"CompareSignificanceHalf", CompareWith(std::string(kGood) + " --significance 0.5"), "--significance"},
      {"CompareMaxInstructionRegressionUnit", CompareWith(std::string(kGood) + " --max-instruction-regression 1x"),
       "--max-instruction-regression"},
      {"CompareLooksZero", CompareWith(std::string(kGood) + " --looks 0"), "--looks"},
      {"CompareLooksNotANumber", CompareWith(std::string(kGood) + " --looks x"), "--looks"},
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
      // Sequential rounds, the round timeout, the gate of instructions (issue 28, 32).
      {"AbRoundsWord", AbRounds("--rounds many --out {out}"), "--rounds"},
      {"AbOneRoundOfTimings", AbRounds("--rounds 1 --out {out}"), "--rounds"},
      {"AbMaxRoundsOne", AbRounds("--rounds auto --max-rounds 1 --out {out}"), "--max-rounds"},
      {"AbMaxRoundsNotANumber", AbRounds("--rounds auto --max-rounds x --out {out}"), "--max-rounds"},
      {"AbMaxRoundsHuge", AbRounds("--rounds auto --max-rounds 1000000 --out {out}"), "--max-rounds"},
      {"AbMaxRoundsWithoutAuto", AbRounds("--rounds 3 --max-rounds 5 --out {out}"), "--max-rounds"},
      {"AbRoundTimeoutZero", Ab("--round-timeout 0 --out {out}"), "--round-timeout"},
      {"AbRoundTimeoutNotADuration", Ab("--round-timeout soon --out {out}"), "--round-timeout"},
      {"AbMaxInstructionRegressionUnit", Ab("--max-instruction-regression 1x --out {out}"),
       "--max-instruction-regression"},
      {"AbSignificanceHalf", Ab("--significance 0.5 --out {out}"), "--significance"},
      // A build that hangs is killed after --round-timeout with its process group; its round is removed.
      {"AbRoundHangsPastTheTimeout",
       "ab --baseline-bin {fx}/hang.sh --current-bin {tool} --rounds 2 --round-timeout 1s --out {out} -- " +
           std::string(kAbRun),
       "hang.sh"},
      // Two builds with nothing in common are found after the first round, not after all of them.
      {"AbBuildsShareNoBenchmark",
       "ab --baseline-bin {fx}/other_results.sh --current-bin {tool} --rounds 50 --out {out} -- " + std::string(kAbRun),
       "share no benchmark"},

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
      // --measure instructions, and the null adapter's test-only faults (adapters/null/null_faults.h).
      {"MeasureUnknown", Run("--measure cycles"), "--measure"},
      {"MeasureInstructionsOfPhases", Ycsb("--measure instructions"), "--measure"},
      {"MeasureInstructionsWithCalibrate", Run("--measure instructions --calibrate"), "--measure"},
      {"NullSpinNotANumber", Run("--engine-option null.spin=fast"), "null.spin"},
      {"NullStallWithoutEvery", Run("--engine-option null.stall=5000"), "null.stall"},
      {"NullStallEveryZero", Run("--engine-option null.stall=5000/0"), "null.stall"},
      {"NullPauseWithoutPeriod", Run("--engine-option null.pause=5000"), "null.pause"},
      {"NullSyncsPerCommitHuge", Run("--engine-option null.syncs_per_commit=100000"), "null.syncs_per_commit"},
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

      // --- run --clients (harness/clients.h) ---
      {"ClientsZero", Ycsb("--engines sqlite --clients 0"), "--clients"},
      {"ClientsNotACount", Ycsb("--engines sqlite --clients two"), "--clients"},
      {"ClientsTooMany", Ycsb("--engines sqlite --clients 65"), "--clients"},
      {"ClientsOnDbx", Ycsb("--engines dbx --clients 2"), "dbx"},
      {"ClientsOnRocksdb", Ycsb("--engines rocksdb --clients 2"), "rocksdb"},
      {"ClientsOnLeveldb", Ycsb("--engines leveldb --clients 2"), "leveldb"},
      {"ClientsOnWiredtiger", Ycsb("--engines wiredtiger --clients 2"), "wiredtiger"},
      {"ClientsOnTheNullEngine", Ycsb("--engines null --clients 2"), "null"},
      {"ClientsOnDbxMicro", Run("--engines sqlite --clients 2"), "--clients"},
      {"ClientsOnSqliteVps", Vps("--clients 2"), "--clients"},
      {"ClientsWithRawLatencies", Ycsb("--engines sqlite --clients 2 --raw-latencies {tmp}/raw.csv"),
       "--raw-latencies"},
      {"ClientByHand", Ycsb("--engines sqlite --client 1/2"), "--client"},
      {"ClientOutOfRange", Ycsb("--engines sqlite --client 3/2 --client-work-dir {data}"), "--client"},

      // --- postgres: TCP and existing servers (adapters/postgres) ---
      {"PostgresListenUnknown", Run("--engines postgres --engine-option postgres.listen=udp"), "postgres.listen"},
      {"PostgresUrlUnparsable", Run("--engines postgres --engine-option postgres.url=postgresql://[::1"),
       "postgres.url"},
      {"PostgresUrlRefused",
       Run("--engines postgres --engine-option postgres.url=postgresql://dbxbench@127.0.0.1:1/postgres"),
       "postgres.url"},
      {"PostgresUrlWithListen",
       Run("--engines postgres --engine-option postgres.url=host=127.0.0.1 --engine-option postgres.listen=tcp"),
       "postgres.listen"},
      {"PostgresSchemaWithoutUrl", Run("--engines postgres --engine-option postgres.schema=mine"), "postgres.schema"},
      {"PostgresSchemaNotAnIdentifier",
       Run("--engines postgres --engine-option postgres.url=host=127.0.0.1 --engine-option postgres.schema=Mine;"),
       "postgres.schema"},
      {"PostgresSchemaOfTheServer",
       Run("--engines postgres --engine-option postgres.url=host=127.0.0.1 --engine-option postgres.schema=public"),
       "postgres.schema"},
      {"PostgresConnectTimeoutZero",
       Run("--engines postgres --engine-option postgres.url=host=127.0.0.1 --engine-option "
           "postgres.connect_timeout_s=0"),
       "postgres.connect_timeout_s"},

      // --- hdr-log and merge (harness/hdr_log_writer.h, cli/merge_command.h) ---
      {"HdrLogForDbxMicro", Run("--hdr-log {tmp}/logs"), "--hdr-log"},
      {"HdrLogUnderAFile", Vps("--hdr-log {file}/sub"), "--hdr-log"},
      {"EmptyHdrLog", Vps("--hdr-log ''"), "--hdr-log"},
      {"MergeOneInput", "merge {fx}/valid_results.json -o {tmp}/m.json", "two inputs"},
      {"MergeNoOutput", "merge {fx}/valid_results.json {fx}/valid_results.json", "-o"},
      {"MergeMissingFile", "merge {fx}/valid_results.json {tmp}/no-such.json -o {tmp}/m.json", "no-such.json"},
      {"MergeTruncated", "merge {fx}/valid_results.json {fx}/truncated_results.json -o {tmp}/m.json",
       "truncated_results.json"},
      {"MergeMicroBenchmarks", "merge {fx}/valid_results.json {prev} -o {tmp}/m.json", "dbx-micro"},
      {"MergeOutIsAnInput", "merge {fx}/valid_results.json {fx}/empty.json -o {fx}/valid_results.json", "-o"},
      {"MergeOutDirMissing", "merge {fx}/valid_results.json {prev} -o {tmp}/no/such/m.json", "-o"},
      {"MergeResultsAndLog", "merge {fx}/valid_results.json {fx}/corrupt.hlog -o {tmp}/m.json", "corrupt.hlog"},
      {"MergeCorruptLog", "merge {fx}/corrupt.hlog {fx}/corrupt.hlog -o {tmp}/m.hlog", "corrupt.hlog"},

      // --- Issue 32: inputs that are not regular files (reading them would block or never end) ---
      {"CompareFifo", Compare(std::string(kGood) + " {fifo}"), "FIFO"},
      {"CompareDevZero", CompareWith("/dev/zero"), "/dev/zero"},
      {"CompareAaRunFifo", CompareWith(std::string(kGood) + " --aa-runs {fifo}"), "FIFO"},
      {"MergeFifo", "merge {fx}/phase_results.json {fifo} -o {tmp}/m.json", "FIFO"},
      {"MergeDevZero", "merge {fx}/phase_results.json /dev/zero -o {tmp}/m.json", "/dev/zero"},
      {"ReportFifo", Report("{fifo} -o {out}"), "FIFO"},
      {"ReportDevZero", Report("/dev/zero -o {out}"), "/dev/zero"},
      {"YcsbFifo", Ycsb("--workload {fifo}"), "FIFO"},

      // --- Issue 32: waits that would never end (sizes, rates and durations checked before the run) ---
      {"YcsbHugeFieldLength", Ycsb("--workload {fx}/ycsb_huge_fieldlength"), "fieldlength"},
      {"YcsbHugeFieldCount", Ycsb("--workload {fx}/ycsb_huge_fieldcount"), "fieldcount"},
      {"YcsbDataSetLargerThanTheDisk",
       "run --workload {fx}/ycsb_petabyte --engines null --operations 100 --out {out} --data-dir {data}",
       "ycsb_petabyte"},
      {"TargetRateTiny", Ycsb("--target-rate 0.000000001"), "--target-rate"},
      {"TargetRateTooSlowForTheOperations", Ycsb("--operations 10M --target-rate 1"), "--target-rate"},
      {"RunLongerThanAWeek", Run("--warmup 72h --measurement 120h"), "--measurement"},
      {"PhasesLongerThanAWeek", Ycsb("--workload {ycsb}/workloada,{ycsb}/workloadb --duration 120h"), "--duration"},
      {"CompareResamplesHuge", CompareWith(std::string(kGood) + " --resamples 2000000000"), "--resamples"},
      {"CompareResamplesTrillion", CompareWith(std::string(kGood) + " --resamples 1000000000000"), "--resamples"},

      // --- Issue 32: outputs that are not ours to replace ---
      {"MergeOutIsADevice", "merge {fx}/phase_results.json {fx}/phase_results_b.json -o {dev}", "-o"},
      {"CompareJsonIsADevice", CompareWith(std::string(kGood) + " --json {dev}"), "--json"},
      {"CompareMarkdownIsAFifo", CompareWith(std::string(kGood) + " --markdown {fifo}"), "--markdown"},
      {"CalibrateOutIsADevice", "calibrate --engines sqlite --records 100 --rounds 3 --out {dev}", "--out"},
      {"RawLatenciesIsADevice", Ycsb("--raw-latencies {dev}"), "--raw-latencies"},
      {"AbJsonIsADevice", Ab("--out {out} --json {dev}"), "--json"},
      {"CompareJsonIsASymlink", CompareWith(std::string(kGood) + " --json {link}"), "symbolic link"},
      {"CompareJsonIsADanglingSymlink", CompareWith(std::string(kGood) + " --json {dangling}"), "symbolic link"},
      {"CompareJsonIsAnInput", Compare("{prev} {fx}/valid_results.json --json {prev}/results.json"), "--json"},
      {"CompareJsonOverAFileNotOurs", CompareWith(std::string(kGood) + " --json {file}"), "--force"},
      {"CompareMarkdownOverAFileNotOurs", CompareWith(std::string(kGood) + " --markdown {prev}/results.md"), "--force"},
      {"CompareForceDoesNotReplaceAnInput",
       Compare("{prev} {fx}/valid_results.json --force --json {prev}/results.json"), "--json"},
      {"RunOutIsADanglingSymlink", Run("--out {dangling}"), "symbolic link"},
      {"RunOutIsASymlinkToAFile", Run("--out {link}"), "--out"},
      {"RunOutHoldsResultsNotOurs", Run("--out {prev}"), "--force"},
      {"AbOutIsADanglingSymlink", Ab("--out {dangling}"), "symbolic link"},
      {"ReportOutIsADanglingSymlink", Report(std::string(kGood) + " -o {dangling}"), "symbolic link"},
      {"ReportOutHoldsAReadmeNotOurs", Report(std::string(kGood) + " -o {notes}"), "README.md"},
      {"MergeOutOverResultsNotOurs", "merge {fx}/phase_results.json {fx}/phase_results_b.json -o {prev}", "-o"},
      {"MergeSameInputTwice", "merge {fx}/phase_results.json {fx}/phase_results.json -o {tmp}/m.json", "twice"},
      {"MergeSameInputViaAnotherPath",
       "merge {fx}/phase_results.json {fx}/../bad_input/phase_results.json -o {tmp}/m.json", "twice"},
      {"RawLatenciesOverEarlierResults", Ycsb("--raw-latencies {prev}/results.json"), "--raw-latencies"},
      {"CalibrateOutIsADirectory", "calibrate --engines sqlite --records 100 --rounds 3 --out {data}", "--out"},

      // --- Issue 32: messages (one line, control characters escaped, the real problem named) ---
      {"OutWithANewline", Run("--out {file}/a{newline}b"), "--out"},
      {"EnginesWithAnEscapeSequence", Run("--engines null{esc}[31m"), "--engines"},
      {"MeasurementExponentWithUnit", Run("--measurement 1e3s"), "exponent"},
      {"EngineOptionTwiceWithDifferentValues",
       Run("--engines sqlite --engine-option sqlite.layout=rowid --engine-option sqlite.layout=without-rowid"),
       "sqlite.layout"},
      {"ComparePairedWithoutSeparator", Compare("--paired {fx}/valid_results.json {prev}"), "--paired"},
      {"LmdbKeySizeAboveMaximum", Run("--engines lmdb --key-size 600"), "--key-size"},
      {"LmdbMapSizeBeyondAddressSpace", Run("--engines lmdb --engine-option lmdb.map_size=1PiB"),
       "lmdb.map_size: 1125899906842624 bytes is more address space"},
      {"LmdbMapSizeBytesBeyondAddressSpace", Run("--engines lmdb --engine-option lmdb.map_size=1125899906842624"),
       "lmdb.map_size"},

      // Reliability round 3 (issue 44): a bad TMPDIR (item 14)
      {"TmpdirMissing", Run(""), "TMPDIR", "TMPDIR={tmp}/nowhere"},
      {"TmpdirIsAFile", Ycsb(""), "TMPDIR", "TMPDIR={file}"},
      {"TmpdirCannotTakeAFile", Run(""), "TMPDIR", "TMPDIR=/proc"},
      {"TmpdirIsAFileWithPostgres", Ycsb("--engines postgres"), "TMPDIR", "TMPDIR={file}"},
      {"TmpdirIsAFileWithInstructions", Run("--measure instructions"), "TMPDIR", "TMPDIR={file}"},
      {"TmpdirMissingForCalibrate", "calibrate --engines sqlite --records 100 --rounds 3", "TMPDIR",
       "TMPDIR={tmp}/nowhere"},

      // Reliability round 3 (issue 44): clients, postgres.url
      {"ClientsWithSla",
       "run --workload {ycsb}/workloadc --engines sqlite --records 100 --clients 2 --sla p99<=10ms --out {out} "
       "--data-dir {data}",
       "--sla: not with --clients"},
      {"ClientsWithHdrLog", Ycsb("--engines sqlite --clients 2 --hdr-log {tmp}/hdr"), "--hdr-log: not with --clients"},
      {"ClientsMoreThanRecords", Ycsb("--engines sqlite --clients 4 --records 3"), "--records"},

      // Reliability round 3 (issue 44): compare, merge, report, ab, sweeps
      {"ReportCapacityTheStepsNeverPassed", Report("{fx}/capacity_never_passed.json -o {out}"), "capacity_ops_per_sec"},
      {"ReportNegativeThroughput", Report("{fx}/negative_throughput.json -o {out}"), "throughput"},
      {"MergeInputsWithCapacitySearches", "merge {fx}/ycsb_capacity.json {fx}/ycsb_capacity_b.json -o {out}",
       "ycsb_capacity.json holds 1 capacity search"},
      {"CompareRunsWithCapacitySearches", Compare("{fx}/ycsb_capacity.json {fx}/ycsb_capacity_b.json"),
       "ycsb_capacity.json: holds 1 capacity search"},
      {"ComparePairedRunsWithCapacitySearches",
       Compare("--paired {fx}/ycsb_capacity.json {fx}/ycsb_capacity_b.json -- {fx}/ycsb_capacity_b.json "
               "{fx}/ycsb_capacity.json"),
       "capacity search"},
      {"CompareBootstrapPastItsBound", CompareWith("{fx}/thousand_samples.json --resamples 10000000"),
       "thousand_samples.json"},
      {"SweepLaterPointLargerThanTheDisk", Ycsb("--records 100,10000000000"), "sweep point records=10000000000"},

      // Reliability round 3 (issue 44): seed suite
      {"SeedSuiteWithDurability", Seed("--durability full"), "--durability: suite seed"},
      {"SeedSuiteWithDurabilitySweep", Seed("--durability none,full"), "--durability: suite seed"},
      {"SeedSuiteWithCacheSize", Seed("--cache-size 128MiB"), "--cache-size: suite seed"},
      {"SeedSuiteWithCacheSizeSweep", Seed("--cache-size 1MiB,64MiB"), "--cache-size: suite seed"},
      {"SeedSuiteWithEngineOption", Seed("--engine-option sqlite.layout=without-rowid"), "--engine-option: suite seed"},
      {"SeedSuiteWithNoSettle", Seed("--no-settle"), "--no-settle: suite seed"},
  };
  return rows;
}

}  // namespace dbxb::test
