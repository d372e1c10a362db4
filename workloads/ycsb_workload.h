// YCSB workload files: the property files of YCSB's CoreWorkload (workloada ... workloadf and their
// variants), read unchanged and validated.
//
// Every CoreWorkload property gets YCSB's default when absent. Values are checked more strictly than
// YCSB does, with one message naming the file, the line and the problem:
//  - counts and sizes must be non-negative integers (YCSB throws NumberFormatException or misbehaves);
//  - booleans must be true or false (YCSB reads anything else as false);
//  - the five operation proportions must sum to 1 within 1e-6. YCSB silently rescales them by their
//    sum, so a typo such as readproportion=0.5 with updateproportion=0.6 would run a 45/55 mix that
//    nobody asked for; 1e-6 still accepts decimal renderings such as 0.333333 three times;
//  - distributions must be ones dbx-bench implements (exponential and histogram are refused by name),
//    and the workload class must be CoreWorkload;
//  - combinations YCSB rejects or mishandles (insertstart + insertcount > recordcount, scans with
//    maxscanlength < 1 or minscanlength > maxscanlength, dataintegrity without constant field lengths).
// Property names are case-sensitive, as in Java. Properties that are not CoreWorkload's (e.g. YCSB
// client settings such as threadcount, or filterproportion in old files) are kept in
// unknown_properties, with one line in warnings each for the caller to print.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace dbxb {

struct YcsbWorkload {
  enum class FieldLengthDistribution { kConstant, kUniform, kZipfian };
  enum class ScanLengthDistribution { kUniform, kZipfian };
  enum class InsertOrder { kHashed, kOrdered };

  std::string source;  ///< the file (or source name) it was read from
  /// `workload`, recorded as given: site.ycsb.workloads.CoreWorkload or its old name
  /// com.yahoo.ycsb.workloads.CoreWorkload (any other class is refused).
  std::string workload_class = "site.ycsb.workloads.CoreWorkload";

  uint64_t record_count = 0;     ///< `recordcount`: records loaded; at least 1
  uint64_t operation_count = 0;  ///< `operationcount`: 0 (YCSB's default) means not bounded by count

  double read_proportion = 0.95;  ///< `readproportion`
  double update_proportion = 0.05;
  double scan_proportion = 0;
  double insert_proportion = 0;
  double read_modify_write_proportion = 0;  ///< `readmodifywriteproportion`

  /// `requestdistribution`, YCSB's name: uniform, zipfian, latest, hotspot or sequential.
  std::string request_distribution = "uniform";
  double hotspot_data_fraction = 0.2;  ///< `hotspotdatafraction`
  double hotspot_op_fraction = 0.8;    ///< `hotspotopnfraction`

  uint64_t field_count = 10;      ///< `fieldcount`: fields per record
  uint64_t field_length = 100;    ///< `fieldlength`: bytes per field (the maximum when not constant)
  uint64_t min_field_length = 1;  ///< `minfieldlength`
  FieldLengthDistribution field_length_distribution = FieldLengthDistribution::kConstant;
  std::string field_name_prefix = "field";  ///< `fieldnameprefix`
  bool read_all_fields = true;              ///< `readallfields`
  bool write_all_fields = false;            ///< `writeallfields`
  bool data_integrity = false;              ///< `dataintegrity`

  uint64_t min_scan_length = 1;     ///< `minscanlength`
  uint64_t max_scan_length = 1000;  ///< `maxscanlength`
  ScanLengthDistribution scan_length_distribution = ScanLengthDistribution::kUniform;

  InsertOrder insert_order = InsertOrder::kHashed;  ///< `insertorder`
  uint64_t insert_start = 0;                        ///< `insertstart`
  uint64_t insert_count = 0;                        ///< `insertcount`; when absent, record_count - insert_start
  uint64_t zero_padding = 1;                        ///< `zeropadding`: digits the key number is padded to
  std::string table = "usertable";

  /// Properties that are not CoreWorkload's, name -> value (the last one when repeated).
  std::map<std::string, std::string> unknown_properties;
  /// "<file>:<line>: ..." for each unknown or repeated property, in file order.
  std::vector<std::string> warnings;

  /// The KeyChooser (workloads/distributions.h) for request_distribution. YCSB's "zipfian" request
  /// distribution is its ScrambledZipfianGenerator, so it maps to "scrambled_zipfian".
  std::string_view KeyChooserName() const;
};

/// Parses and validates the text of a workload file. `source_name` names it in messages.
/// InvalidArgument "<source_name>:<line>: <problem>" (or "<source_name>: <problem>" for a problem of
/// the whole file) when the text is not a valid CoreWorkload property file.
Result<YcsbWorkload> ParseYcsbWorkload(std::string_view text, std::string_view source_name);

/// Reads and parses the file at `path` (ReadInputFile, common/file_policy.h): InvalidArgument naming
/// the path when it is missing, not a regular file (a directory, a FIFO, a device) or larger than
/// kMaxWorkloadFileBytes; IOError when it cannot be read; otherwise as ParseYcsbWorkload.
Result<YcsbWorkload> LoadYcsbWorkloadFile(const std::string& path);

}  // namespace dbxb
