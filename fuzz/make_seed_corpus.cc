// Writes the DBX part of the seed corpus (fuzz/corpus/dbx_wal, dbx_segment, dbx_open) with the
// engine's own writers, and results.json files with sweeps and capacity searches
// (fuzz/corpus/results_records, from the writers' sample records), so that the fuzzers start from
// well-formed files. Run by hand when the formats change:  build/fuzz/make_seed_corpus fuzz/corpus
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "dbx/options.h"
#include "dbx/write_batch.h"
#include "records/json_results.h"
#include "src/env.h"
#include "src/manifest.h"
#include "src/mem_table.h"
#include "src/segment_writer.h"
#include "src/wal.h"
#include "src/write_batch_internal.h"
#include "tests/fixtures/sample_capacity.h"

namespace fs = std::filesystem;

namespace {

void Save(const fs::path& p, const std::string& bytes) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  std::printf("%s: %zu bytes\n", p.c_str(), bytes.size());
}

std::string Key(int i) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "key_%08d", i);
  return buf;
}

// Three commits: puts, an overwrite and a delete; sequences 1.. as the engine numbers them.
std::string Wal() {
  std::string wal;
  uint64_t seq = 1;
  for (int commit = 0; commit < 3; ++commit) {
    dbx::WriteBatch b;
    for (int i = 0; i < 4; ++i) b.Put(Key(commit * 2 + i), "value_" + std::to_string(commit * 10 + i));
    if (commit == 2) b.Delete(Key(1));
    dbx::WriteBatchInternal::SetSequence(&b, seq);
    seq += b.Count();
    dbx::AppendWalRecord(&wal, dbx::WriteBatchInternal::Contents(b));
  }
  return wal;
}

std::string Segment(const fs::path& scratch, dbx::Compression compression) {
  dbx::Options o;
  o.compression = compression;
  o.block_size = 128;  // several data blocks
  std::unique_ptr<dbx::WritableFile> f;
  fs::path path = scratch / "seed.seg";
  if (!dbx::WritableFile::Create(path.string(), &f).ok()) std::abort();
  dbx::SegmentWriter w(o, std::move(f));
  uint64_t seq = 100;
  for (int i = 0; i < 24; ++i) {
    std::string key = Key(i);
    if (i % 5 == 0) w.Add(key, dbx::PackTag(seq--, dbx::ValueType::kDelete), "");
    w.Add(key, dbx::PackTag(seq--, dbx::ValueType::kPut), "value_" + std::to_string(i) + "_data_data_data");
  }
  if (!w.Finish().ok()) std::abort();
  std::string bytes;
  if (!dbx::ReadFileToString(path.string(), &bytes).ok()) std::abort();
  return bytes;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_seed_corpus CORPUS_DIR\n");
    return 2;
  }
  fs::path corpus = argv[1];
  fs::path scratch = fs::temp_directory_path() / "dbx-seed-corpus";
  fs::create_directories(scratch);

  std::string wal = Wal();
  Save(corpus / "dbx_wal/three_commits.wal", wal);
  Save(corpus / "dbx_wal/torn_tail.wal", wal.substr(0, wal.size() - 7));

  Save(corpus / "dbx_segment/none.seg", Segment(scratch, dbx::Compression::kNone));
  Save(corpus / "dbx_segment/lz4.seg", Segment(scratch, dbx::Compression::kLz4));
  Save(corpus / "dbx_segment/zstd.seg", Segment(scratch, dbx::Compression::kZstd));

  // dbx_open: manifest length byte | manifest | WAL.
  Save(corpus / "dbx_open/wal_only", std::string(1, '\0') + wal);
  dbx::ManifestData m;
  m.next_file_number = 2;
  std::string manifest = dbx::EncodeManifest(m);
  Save(corpus / "dbx_open/empty_manifest_and_wal", std::string(1, static_cast<char>(manifest.size())) + manifest + wal);

  // results_records: a capacity sweep cut to two searches (one with a failing step above its capacity,
  // one whose search found none), and a dbx-micro sweep with a failed point.
  dbxb::RunResults capacity = dbxb::testdata::SampleCapacityRuns()[0];
  capacity.phases.clear();
  if (capacity.capacity.size() > 2) capacity.capacity.resize(2);
  capacity.capacity[1].capacity_ops_per_sec = 0;
  capacity.capacity[1].lower_step = -1;
  for (dbxb::CapacityStep& step : capacity.capacity[1].steps) step.met_sla = false;
  Save(corpus / "results_records/capacity_sweep.json", dbxb::SerializeResults(capacity));
  Save(corpus / "results_records/micro_sweep.json", dbxb::SerializeResults(dbxb::testdata::SampleSweepRun()));
  fs::remove_all(scratch);
  return 0;
}
