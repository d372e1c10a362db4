#include "src/manifest.h"

#include <cstdio>

#include "src/coding.h"
#include "src/crc32c.h"

namespace dbx {
namespace {
// Version 2 adds log_number; version 1 manifests (log_number 0) are still read.
constexpr std::string_view kMagicV1 = "DBXMANI1";
constexpr std::string_view kMagic = "DBXMANI2";
}  // namespace

std::string EncodeManifest(const ManifestData& m) {
  std::string s(kMagic);
  PutVarint64(&s, m.next_file_number);
  PutVarint64(&s, m.flushed_seq);
  PutVarint64(&s, m.live_keys);
  PutVarint64(&s, m.log_number);
  PutVarint64(&s, m.segments.size());
  for (uint64_t n : m.segments) PutVarint64(&s, n);
  PutFixed32(&s, crc32c::Mask(crc32c::Value(s.data(), s.size())));
  return s;
}

Status DecodeManifest(std::string_view data, ManifestData* m) {
  if (data.size() < kMagic.size() + 4) return Status::Corruption("manifest: bad magic");
  const bool v1 = data.substr(0, kMagicV1.size()) == kMagicV1;
  if (!v1 && data.substr(0, kMagic.size()) != kMagic) return Status::Corruption("manifest: bad magic");
  size_t body = data.size() - 4;
  if (crc32c::Unmask(DecodeFixed32(data.data() + body)) != crc32c::Value(data.data(), body))
    return Status::Corruption("manifest: checksum mismatch");
  std::string_view in = data.substr(kMagic.size(), body - kMagic.size());
  uint64_t n;
  *m = ManifestData();
  if (!GetVarint64(&in, &m->next_file_number) || !GetVarint64(&in, &m->flushed_seq) ||
      !GetVarint64(&in, &m->live_keys) || (!v1 && !GetVarint64(&in, &m->log_number)) || !GetVarint64(&in, &n) ||
      n > in.size())
    return Status::Corruption("manifest: bad header");
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t num;
    if (!GetVarint64(&in, &num)) return Status::Corruption("manifest: bad segment list");
    m->segments.push_back(num);
  }
  if (!in.empty()) return Status::Corruption("manifest: trailing bytes");
  return Status::Ok();
}

Status ReadManifest(Env* env, const std::string& dir, ManifestData* m, bool* exists) {
  std::string path = dir + "/" + kManifestName;
  *exists = env->FileExists(path);
  if (!*exists) return Status::Ok();
  std::string data;
  DBX_RETURN_IF_ERROR(env->ReadFileToString(path, &data));
  return DecodeManifest(data, m);
}

Status WriteManifest(Env* env, const std::string& dir, const ManifestData& m) {
  return env->ReplaceFileAtomically(dir, kManifestName, EncodeManifest(m));
}

std::string SegmentFileName(uint64_t number) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%06llu.seg", static_cast<unsigned long long>(number));
  return buf;
}

std::string WalFileName(uint64_t number) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%06llu.wal", static_cast<unsigned long long>(number));
  return buf;
}

bool ParseFileName(const std::string& name, uint64_t* number, std::string* ext) {
  size_t dot = name.find('.');
  if (dot == 0 || dot == std::string::npos) return false;
  uint64_t n = 0;
  for (size_t i = 0; i < dot; ++i) {
    if (name[i] < '0' || name[i] > '9' || n > (~uint64_t{0}) / 10 - 10) return false;
    n = n * 10 + static_cast<uint64_t>(name[i] - '0');
  }
  *number = n;
  *ext = name.substr(dot + 1);
  return true;
}

}  // namespace dbx
