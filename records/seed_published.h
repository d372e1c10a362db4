// The DBX team's published comparison (the seed's report) as data: its figures, transcribed in
// records/seed_published.csv with their source and compiled into the tool, and the points where the
// report's stated "fair comparison conditions" differ from its benchmark code. `report` sets these beside
// the seed suite's replica and the fair dbx-micro (writers/markdown_seed.h); the seed suite replicates the
// code (workloads/seed/).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace dbxb {

struct PublishedFigure {
  std::string section;   ///< "summary", "detailed", "claim", "summary_v0_0_6"
  std::string workload;  ///< "insert", "get", "scan"
  std::string engine;    ///< dbx-bench's name: "dbx-core", "sqlite", "sled", "redb"
  std::optional<double> mean_ns;
  std::optional<double> std_dev_ns;
  std::string printed;  ///< the text as the report printed it
};

/// Every row of records/seed_published.csv, in file order.
const std::vector<PublishedFigure>& SeedPublishedFigures();
/// The source lines of records/seed_published.csv (its leading comments, without "# ").
const std::vector<std::string>& SeedPublishedSource();
/// The figure of `section`, `workload`, `engine`, or nullptr.
const PublishedFigure* FindPublished(const std::string& section, const std::string& workload,
                                     const std::string& engine);

/// Each point where the report's stated "fair comparison conditions" (batch commits, durability None,
/// `PRAGMA synchronous = OFF`, identical workloads) differ from what its benchmark code does, one
/// sentence each, as read in official_db_comparison.rs.
const std::vector<std::string>& SeedConditionDifferences();

}  // namespace dbxb
