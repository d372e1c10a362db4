// writers/markdown_resources.h: the Server columns appear when an engine in the table runs a server
// (with "—" for the others) and the legend says what they are; without a server the table is unchanged.
#include "writers/markdown_resources.h"

#include <gtest/gtest.h>

#include <sstream>

namespace dbxb {
namespace {

PhaseResult Phase(const std::string& engine, std::optional<ServerResourceUsage> server) {
  PhaseResult p;
  p.suite = "ycsb";
  p.workload = "workloada";
  p.phase = "run";
  p.engine = engine;
  ResourceUsage u;
  u.operations = 1000;
  u.cpu_ns_per_op = 2000;
  u.server = server;
  p.resources = u;
  return p;
}

TEST(MarkdownResources, ServerColumnsOnlyWhenAnEngineRunsAServer) {
  RunResults without;
  without.phases = {Phase("sqlite", std::nullopt)};
  std::ostringstream plain;
  WriteResourceTables(without, plain);
  EXPECT_EQ(plain.str().find("Server"), std::string::npos) << plain.str();

  ServerResourceUsage s;
  s.cpu_user_ns = 1'000'000;  // 1 ms over 1,000 operations: 1 µs/op
  s.pss_bytes = 48 << 20;
  s.io_write_bytes = 2'048'000;
  s.wal_bytes = 512'000;
  RunResults with;
  with.phases = {Phase("postgres", s), Phase("sqlite", std::nullopt)};
  std::ostringstream out;
  WriteResourceTables(with, out);
  const std::string md = out.str();
  EXPECT_NE(md.find("| Server CPU/op | Server PSS | Server written/op | WAL/op |"), std::string::npos) << md;
  EXPECT_NE(md.find("| 1.000 µs | 48.0 MiB | 2.0 KiB | 512 B |"), std::string::npos) << md;
  EXPECT_NE(md.find("| run | sqlite |"), std::string::npos);
  EXPECT_NE(md.find(" — | — | — | — |"), std::string::npos) << "an engine without a server: " << md;
  EXPECT_NE(md.find("The Server columns are its share"), std::string::npos) << "the legend says what they are";
}

}  // namespace
}  // namespace dbxb
