// Helpers of the segment tests (segment_test, point_hint_test): a model of keys and their versions,
// written as one segment file.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "dbx/options.h"
#include "src/env.h"
#include "src/segment_writer.h"

namespace dbx::test {

struct Version {
  uint64_t seq;
  bool put;
  std::string value;
};
using Model = std::map<std::string, std::vector<Version>>;  // versions newest first

/// Writes `model` as a segment file at `path` and returns the file's bytes.
inline std::string WriteModelSegment(const std::string& path, const Model& model, Compression c, size_t block_size) {
  Options o;
  o.compression = c;
  o.block_size = block_size;
  std::unique_ptr<WritableFile> f;
  EXPECT_TRUE(WritableFile::Create(path, &f).ok());
  SegmentWriter w(o, std::move(f));
  for (const auto& [k, versions] : model)
    for (const auto& v : versions) w.Add(k, PackTag(v.seq, v.put ? ValueType::kPut : ValueType::kDelete), v.value);
  EXPECT_TRUE(w.Finish().ok());
  std::string data;
  EXPECT_TRUE(ReadFileToString(path, &data).ok());
  return data;
}

}  // namespace dbx::test
