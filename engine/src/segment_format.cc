#include "src/segment_format.h"

#include "src/crc32c.h"

namespace dbx {

std::string SegmentFooter::Encode() const {
  std::string s;
  for (const BlockHandle* h : {&filter, &index, &meta}) {
    PutFixed64(&s, h->offset);
    PutFixed32(&s, h->size);
  }
  PutFixed64(&s, kSegmentMagic);
  PutFixed32(&s, crc32c::Mask(crc32c::Value(s.data(), s.size())));
  return s;
}

Status SegmentFooter::Decode(std::string_view in, SegmentFooter* out) {
  if (in.size() != kFooterSize) return Status::Corruption("short segment footer");
  if (DecodeFixed64(in.data() + 36) != kSegmentMagic) return Status::Corruption("not a segment file (bad magic)");
  if (crc32c::Unmask(DecodeFixed32(in.data() + 44)) != crc32c::Value(in.data(), 44))
    return Status::Corruption("segment footer checksum mismatch");
  BlockHandle* hs[] = {&out->filter, &out->index, &out->meta};
  for (int i = 0; i < 3; ++i) {
    hs[i]->offset = DecodeFixed64(in.data() + 12 * i);
    hs[i]->size = DecodeFixed32(in.data() + 12 * i + 8);
  }
  return Status::Ok();
}

std::string SegmentMeta::Encode() const {
  std::string s;
  PutVarint64(&s, entries);
  PutVarint64(&s, keys);
  PutVarint64(&s, min_seq);
  PutVarint64(&s, max_seq);
  PutLengthPrefixed(&s, smallest);
  PutLengthPrefixed(&s, largest);
  return s;
}

Status SegmentMeta::Decode(std::string_view in, SegmentMeta* out) {
  std::string_view a, b;
  if (!GetVarint64(&in, &out->entries) || !GetVarint64(&in, &out->keys) || !GetVarint64(&in, &out->min_seq) ||
      !GetVarint64(&in, &out->max_seq) || !GetLengthPrefixed(&in, &a) || !GetLengthPrefixed(&in, &b))
    return Status::Corruption("bad segment meta block");
  out->smallest.assign(a);
  out->largest.assign(b);
  return Status::Ok();
}

}  // namespace dbx
