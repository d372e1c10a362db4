#include "workloads/ycsb_workload.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "workloads/distributions.h"

namespace dbxb {
namespace {

const std::string kDir = DBXB_YCSB_DIR;  // workloads/ycsb in the source tree

using Fld = YcsbWorkload::FieldLengthDistribution;
using Scan = YcsbWorkload::ScanLengthDistribution;

YcsbWorkload Load(const std::string& name) {
  auto r = LoadYcsbWorkloadFile(kDir + "/" + name);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? r.value() : YcsbWorkload{};
}

void ExpectCommon(const YcsbWorkload& w) {
  EXPECT_EQ(w.record_count, 1000u);
  EXPECT_EQ(w.operation_count, 1000u);
  EXPECT_EQ(w.workload_class, "site.ycsb.workloads.CoreWorkload");
  EXPECT_TRUE(w.read_all_fields);
  EXPECT_FALSE(w.write_all_fields);
  EXPECT_EQ(w.field_count, 10u);
  EXPECT_EQ(w.field_length, 100u);
  EXPECT_EQ(w.field_length_distribution, Fld::kConstant);
  EXPECT_EQ(w.insert_order, YcsbWorkload::InsertOrder::kHashed);
  EXPECT_EQ(w.insert_start, 0u);
  EXPECT_EQ(w.insert_count, 1000u);
  EXPECT_EQ(w.table, "usertable");
  EXPECT_TRUE(w.unknown_properties.empty());
  EXPECT_TRUE(w.warnings.empty());
}

struct Mix {
  double read, update, scan, insert, rmw;
};

void ExpectMix(const YcsbWorkload& w, Mix m) {
  EXPECT_DOUBLE_EQ(w.read_proportion, m.read);
  EXPECT_DOUBLE_EQ(w.update_proportion, m.update);
  EXPECT_DOUBLE_EQ(w.scan_proportion, m.scan);
  EXPECT_DOUBLE_EQ(w.insert_proportion, m.insert);
  EXPECT_DOUBLE_EQ(w.read_modify_write_proportion, m.rmw);
}

TEST(YcsbWorkloadTest, ShippedCoreWorkloads) {
  const YcsbWorkload a = Load("workloada"), b = Load("workloadb"), c = Load("workloadc"), d = Load("workloadd"),
                     e = Load("workloade"), f = Load("workloadf");
  for (const auto* w : {&a, &b, &c, &d, &e, &f}) ExpectCommon(*w);
  ExpectMix(a, {0.5, 0.5, 0, 0, 0});
  ExpectMix(b, {0.95, 0.05, 0, 0, 0});
  ExpectMix(c, {1, 0, 0, 0, 0});
  ExpectMix(d, {0.95, 0, 0, 0.05, 0});
  ExpectMix(e, {0, 0, 0.95, 0.05, 0});
  ExpectMix(f, {0.5, 0, 0, 0, 0.5});
  for (const auto* w : {&a, &b, &c, &e, &f}) {
    EXPECT_EQ(w->request_distribution, "zipfian");
    EXPECT_EQ(w->KeyChooserName(), "scrambled_zipfian");  // YCSB's zipfian requests are scrambled
  }
  EXPECT_EQ(d.request_distribution, "latest");
  EXPECT_EQ(d.KeyChooserName(), "latest");
  EXPECT_EQ(e.max_scan_length, 100u);
  EXPECT_EQ(e.min_scan_length, 1u);
  EXPECT_EQ(e.scan_length_distribution, Scan::kUniform);
  EXPECT_EQ(a.source, kDir + "/workloada");
  // Every request distribution the files name is one the key chooser factory builds.
  for (const auto* w : {&a, &d}) {
    KeyChooserOptions o;
    o.item_count = w->record_count;
    EXPECT_TRUE(MakeKeyChooser(w->KeyChooserName(), o).ok());
  }
}

TEST(YcsbWorkloadTest, DefaultsAreYcsbs) {
  auto r = ParseYcsbWorkload("recordcount=10", "min");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const YcsbWorkload& w = r.value();
  EXPECT_EQ(w.operation_count, 0u);
  ExpectMix(w, {0.95, 0.05, 0, 0, 0});
  EXPECT_EQ(w.request_distribution, "uniform");
  EXPECT_EQ(w.KeyChooserName(), "uniform");
  EXPECT_EQ(w.max_scan_length, 1000u);
  EXPECT_EQ(w.min_field_length, 1u);
  EXPECT_EQ(w.zero_padding, 1u);
  EXPECT_EQ(w.field_name_prefix, "field");
  EXPECT_DOUBLE_EQ(w.hotspot_data_fraction, 0.2);
  EXPECT_DOUBLE_EQ(w.hotspot_op_fraction, 0.8);
  EXPECT_FALSE(w.data_integrity);
  EXPECT_EQ(w.insert_count, 10u);
}

TEST(YcsbWorkloadTest, EveryPropertyAndSyntaxVariant) {
  const char* text =
      "# every CoreWorkload property, in every separator style\n"
      "recordcount = 5000\n"
      "operationcount:+20000\n"
      "workload site.ycsb.workloads.CoreWorkload\n"
      "readproportion=0.25\n"
      "updateproportion = .25\n"
      "scanproportion=2.5e-1\n"
      "insertproportion=0.1\n"
      "readmodifywriteproportion=0.15\n"
      "requestdistribution=hotspot   \n"
      "hotspotdatafraction=0.1\n"
      "hotspotopnfraction=0.9\n"
      "fieldcount=4\n"
      "fieldlength=64\n"
      "minfieldlength=8\n"
      "fieldlengthdistribution=zipfian\n"
      "fieldnameprefix=f_\n"
      "readallfields=FALSE\n"
      "writeallfields=True\n"
      "dataintegrity=false\n"
      "minscanlength=2\n"
      "maxscanlength=\\\n"
      "    50\n"
      "scanlengthdistribution=zipfian\n"
      "insertorder=ordered\n"
      "insertstart=1000\n"
      "insertcount=2000\n"
      "zeropadding=12\n"
      "table=bench\n";
  auto r = ParseYcsbWorkload(text, "all.properties");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const YcsbWorkload& w = r.value();
  EXPECT_EQ(w.record_count, 5000u);
  EXPECT_EQ(w.operation_count, 20000u);
  ExpectMix(w, {0.25, 0.25, 0.25, 0.1, 0.15});
  EXPECT_EQ(w.request_distribution, "hotspot");
  EXPECT_DOUBLE_EQ(w.hotspot_data_fraction, 0.1);
  EXPECT_DOUBLE_EQ(w.hotspot_op_fraction, 0.9);
  EXPECT_EQ(w.field_count, 4u);
  EXPECT_EQ(w.field_length, 64u);
  EXPECT_EQ(w.min_field_length, 8u);
  EXPECT_EQ(w.field_length_distribution, Fld::kZipfian);
  EXPECT_EQ(w.field_name_prefix, "f_");
  EXPECT_FALSE(w.read_all_fields);
  EXPECT_TRUE(w.write_all_fields);
  EXPECT_EQ(w.min_scan_length, 2u);
  EXPECT_EQ(w.max_scan_length, 50u);
  EXPECT_EQ(w.scan_length_distribution, Scan::kZipfian);
  EXPECT_EQ(w.insert_order, YcsbWorkload::InsertOrder::kOrdered);
  EXPECT_EQ(w.insert_start, 1000u);
  EXPECT_EQ(w.insert_count, 2000u);
  EXPECT_EQ(w.zero_padding, 12u);
  EXPECT_EQ(w.table, "bench");
  EXPECT_TRUE(w.warnings.empty());
}

TEST(YcsbWorkloadTest, UnknownAndRepeatedPropertiesAreKeptAndWarned) {
  auto r = ParseYcsbWorkload(
      "recordcount=10\n"
      "filterproportion=0\n"
      "threadcount=8\n"
      "zeroPadding=8\n"
      "recordcount=20\n",
      "w");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const YcsbWorkload& w = r.value();
  EXPECT_EQ(w.record_count, 20u);  // the last value wins, as in Java
  EXPECT_EQ(w.zero_padding, 1u);   // names are case-sensitive
  EXPECT_EQ(w.unknown_properties, (std::map<std::string, std::string>{
                                      {"filterproportion", "0"}, {"threadcount", "8"}, {"zeroPadding", "8"}}));
  ASSERT_EQ(w.warnings.size(), 4u);
  EXPECT_EQ(w.warnings[0], "w:2: 'filterproportion' is not a CoreWorkload property; ignored");
  EXPECT_EQ(w.warnings[2],
            "w:4: 'zeroPadding' is not a CoreWorkload property; ignored (did you mean 'zeropadding'? names are "
            "case-sensitive)");
  EXPECT_EQ(w.warnings[3], "w:5: 'recordcount' set again, replacing the value of line 1");
}

TEST(YcsbWorkloadTest, ProportionsWithinToleranceAreAccepted) {
  EXPECT_TRUE(ParseYcsbWorkload("recordcount=1\nreadproportion=0.333333\nupdateproportion=0.333333\n"
                                "insertproportion=0.333334\n",
                                "x")
                  .ok());
  EXPECT_TRUE(ParseYcsbWorkload("recordcount=1\nreadproportion=0.3333333\nupdateproportion=0.3333333\n"
                                "insertproportion=0.3333333\n",
                                "x")
                  .ok());
  auto r =
      ParseYcsbWorkload("recordcount=1\nreadproportion=0.333\nupdateproportion=0.333\ninsertproportion=0.333\n", "x");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("x:4: operation proportions sum to 0.999"), std::string::npos)
      << r.status().message();
}

// Each malformed fixture in workloads/ycsb/testdata and the start of the message it must give.
struct BadFile {
  const char* file;
  const char* message;  // after "<path>"
};

class MalformedWorkloadTest : public ::testing::TestWithParam<BadFile> {};

TEST_P(MalformedWorkloadTest, GivesItsError) {
  const std::string path = kDir + "/testdata/" + GetParam().file;
  ASSERT_TRUE(std::filesystem::exists(path)) << path;
  auto r = LoadYcsbWorkloadFile(path);
  ASSERT_FALSE(r.ok()) << path << " was accepted";
  EXPECT_TRUE(r.status().IsInvalidArgument()) << r.status().ToString();
  const std::string want = path + GetParam().message;
  EXPECT_EQ(r.status().message().substr(0, want.size()), want) << r.status().message();
}

INSTANTIATE_TEST_SUITE_P(
    Fixtures, MalformedWorkloadTest,
    ::testing::Values(
        BadFile{"binary_garbage", ":3: not a text file (control byte 0x00)"},
        BadFile{"latin1_text", ":3: not UTF-8 text (byte 0xe9)"},
        BadFile{"negative_recordcount", ":1: recordcount: must not be negative, got -5"},
        BadFile{"nonnumeric_operationcount", ":2: operationcount: 'lots' is not an integer"},
        BadFile{"proportions_do_not_sum_to_one",
                ":6: operation proportions sum to 1.1, not 1 (readproportion 0.5, updateproportion 0.6, "
                "scanproportion 0 (default), insertproportion 0 (default), readmodifywriteproportion 0 (default))"},
        BadFile{"proportion_above_one", ":4: readproportion: must be between 0 and 1, got 1.5"},
        BadFile{"unknown_distribution",
                ":6: requestdistribution: unknown value 'gaussian' (supported: uniform, zipfian, latest, hotspot, "
                "sequential)"},
        BadFile{"exponential_distribution",
                ":6: requestdistribution: 'exponential' is a YCSB option that dbx-bench does not support"},
        BadFile{"scans_without_length", ":8: scanproportion is 0.95 but maxscanlength is 0"},
        BadFile{"malformed_unicode_escape", ":4: malformed \\uxxxx escape"},
        BadFile{"insertcount_beyond_recordcount", ":4: insertstart + insertcount = 50 + 60 exceeds recordcount 100"},
        BadFile{"bad_boolean", ":4: readallfields: expected true or false, got 'yes'"},
        BadFile{"field_length_histogram",
                ":4: fieldlengthdistribution: 'histogram' is a YCSB option that dbx-bench does not support"},
        BadFile{"no_recordcount", ": recordcount: must be at least 1"},
        BadFile{"min_field_length_above_max", ":6: minfieldlength 20 exceeds fieldlength 10"}),
    [](const ::testing::TestParamInfo<BadFile>& info) { return std::string(info.param.file); });

TEST(YcsbWorkloadTest, FileErrors) {
  auto missing = LoadYcsbWorkloadFile(kDir + "/no_such_workload");
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(missing.status().IsInvalidArgument());
  EXPECT_EQ(missing.status().message(), kDir + "/no_such_workload: cannot read: No such file or directory");
  auto dir = LoadYcsbWorkloadFile(kDir);
  ASSERT_FALSE(dir.ok());
  EXPECT_EQ(dir.status().message(), kDir + ": is a directory, not a regular file");
  // A FIFO is refused by its type, without waiting for a writer that never comes.
  const std::string fifo = ::testing::TempDir() + "ycsb_workload_test_fifo_" + std::to_string(::getpid());
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto pipe = LoadYcsbWorkloadFile(fifo);
  ::unlink(fifo.c_str());
  ASSERT_FALSE(pipe.ok());
  EXPECT_EQ(pipe.status().message(), fifo + ": is a FIFO (named pipe), not a regular file");
}

TEST(YcsbWorkloadTest, MoreValidation) {
  auto err = [](std::string_view text) { return ParseYcsbWorkload(text, "v").status().message(); };
  EXPECT_EQ(err("recordcount=99999999999999999999999"),
            "v:1: recordcount: 99999999999999999999999 is too large (at most 18446744073709551615)");
  EXPECT_EQ(err("recordcount=10\nfieldlength=3000000000"),
            "v:2: fieldlength: 3000000000 is too large (at most 2147483647)");
  EXPECT_EQ(err("recordcount=1e3"), "v:1: recordcount: '1e3' is not an integer");
  // A record is generated whole in memory: at most 64 MiB (fieldcount x fieldlength), named by the line
  // that made it too large.
  EXPECT_EQ(err("recordcount=10\nfieldlength=2000000000"),
            "v:2: fieldcount 10 x fieldlength 2000000000 is a record of 20000000000 bytes, more than the 64 MiB "
            "dbx-bench generates per record");
  EXPECT_EQ(err("recordcount=10\nfieldlength=1000\nfieldcount=100000000"),
            "v:3: fieldcount 100000000 x fieldlength 1000 is a record of 100000000000 bytes, more than the 64 MiB "
            "dbx-bench generates per record");
  EXPECT_TRUE(ParseYcsbWorkload("recordcount=10\nfieldcount=64\nfieldlength=1048576", "v").ok()) << "64 MiB";
  EXPECT_EQ(err("recordcount=10\nreadproportion=nan\nupdateproportion=0"),
            "v:2: readproportion: 'nan' is not a number");
  EXPECT_EQ(err("recordcount=10\nfieldcount=0"), "v:2: fieldcount: must be at least 1");
  EXPECT_EQ(err("recordcount=10\ninsertstart=11"), "v:2: insertstart: 11 is beyond recordcount 10");
  EXPECT_EQ(
      err("recordcount=10\nreadproportion=0\nupdateproportion=0\nscanproportion=1\nminscanlength=5\nmaxscanlength=4"),
      "v:5: minscanlength 5 exceeds maxscanlength 4");
  EXPECT_EQ(err("recordcount=10\ndataintegrity=true\nfieldlengthdistribution=uniform"),
            "v:2: dataintegrity=true needs fieldlengthdistribution=constant (as in YCSB)");
  EXPECT_EQ(err("recordcount=10\nrequestdistribution=hotspot\nhotspotdatafraction=0"),
            "v:3: hotspotdatafraction: a hotspot distribution needs a hot set above 0");
  EXPECT_EQ(err("recordcount=10\ninsertorder=random"),
            "v:2: insertorder: unknown value 'random' (supported: hashed, ordered)");
  EXPECT_EQ(err("recordcount=10\nzeropadding=0"), "v:2: zeropadding: must be at least 1");
  EXPECT_EQ(err("recordcount=10\nworkload=site.ycsb.workloads.TimeSeriesWorkload"),
            "v:2: workload: 'site.ycsb.workloads.TimeSeriesWorkload' is not YCSB's CoreWorkload, the only workload "
            "class dbx-bench implements");
  auto old_name = ParseYcsbWorkload("recordcount=10\nworkload=com.yahoo.ycsb.workloads.CoreWorkload", "v");
  ASSERT_TRUE(old_name.ok());
  EXPECT_EQ(old_name.value().workload_class, "com.yahoo.ycsb.workloads.CoreWorkload");
  // Scan settings do not matter when there are no scans (YCSB's defaults, e.g. maxscanlength=0, pass).
  EXPECT_TRUE(ParseYcsbWorkload("recordcount=10\nmaxscanlength=0", "v").ok());
}

}  // namespace
}  // namespace dbxb
