// Little-endian fixed-width and varint encodings shared by the WAL, batches, blocks and manifest.
// Decoders never read past the end they are given; they return false on truncated input.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace dbx {

inline void EncodeFixed32(char* p, uint32_t v) { std::memcpy(p, &v, 4); }  // little-endian hosts only
inline void EncodeFixed64(char* p, uint64_t v) { std::memcpy(p, &v, 8); }
inline uint32_t DecodeFixed32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
inline uint64_t DecodeFixed64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

inline void PutFixed32(std::string* dst, uint32_t v) {
  char buf[4];
  EncodeFixed32(buf, v);
  dst->append(buf, 4);
}
inline void PutFixed64(std::string* dst, uint64_t v) {
  char buf[8];
  EncodeFixed64(buf, v);
  dst->append(buf, 8);
}

/// Writes v as a varint at p; returns the byte after it. p needs room for 10 bytes.
inline char* EncodeVarint64(char* p, uint64_t v) {
  auto* u = reinterpret_cast<unsigned char*>(p);
  while (v >= 0x80) {
    *u++ = static_cast<unsigned char>(v | 0x80);
    v >>= 7;
  }
  *u++ = static_cast<unsigned char>(v);
  return reinterpret_cast<char*>(u);
}
inline void PutVarint64(std::string* dst, uint64_t v) {
  char buf[10];
  dst->append(buf, EncodeVarint64(buf, v) - buf);
}
inline void PutVarint32(std::string* dst, uint32_t v) { PutVarint64(dst, v); }
inline int VarintLength(uint64_t v) {
  int n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

/// Decodes a varint from [p, limit). Returns the byte after it, or nullptr when malformed/truncated.
inline const char* DecodeVarint64(const char* p, const char* limit, uint64_t* v) {
  uint64_t result = 0;
  for (int shift = 0; shift <= 63 && p < limit; shift += 7) {
    uint64_t byte = static_cast<unsigned char>(*p++);
    result |= (byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      *v = result;
      return p;
    }
  }
  return nullptr;
}
inline const char* DecodeVarint32(const char* p, const char* limit, uint32_t* v) {
  if (p < limit && (static_cast<unsigned char>(*p) & 0x80) == 0) {  // the common one-byte case
    *v = static_cast<unsigned char>(*p);
    return p + 1;
  }
  uint64_t r;
  p = DecodeVarint64(p, limit, &r);
  if (p == nullptr || r > 0xffffffffu) return nullptr;
  *v = static_cast<uint32_t>(r);
  return p;
}

/// Consumes a varint from the front of *in. False when malformed.
inline bool GetVarint64(std::string_view* in, uint64_t* v) {
  const char* p = DecodeVarint64(in->data(), in->data() + in->size(), v);
  if (p == nullptr) return false;
  in->remove_prefix(p - in->data());
  return true;
}
inline bool GetVarint32(std::string_view* in, uint32_t* v) {
  const char* p = DecodeVarint32(in->data(), in->data() + in->size(), v);
  if (p == nullptr) return false;
  in->remove_prefix(p - in->data());
  return true;
}
inline bool GetFixed32(std::string_view* in, uint32_t* v) {
  if (in->size() < 4) return false;
  *v = DecodeFixed32(in->data());
  in->remove_prefix(4);
  return true;
}
inline bool GetFixed64(std::string_view* in, uint64_t* v) {
  if (in->size() < 8) return false;
  *v = DecodeFixed64(in->data());
  in->remove_prefix(8);
  return true;
}
/// A varint length followed by that many bytes.
inline void PutLengthPrefixed(std::string* dst, std::string_view s) {
  PutVarint64(dst, s.size());
  dst->append(s.data(), s.size());
}
inline bool GetLengthPrefixed(std::string_view* in, std::string_view* out) {
  uint64_t n;
  if (!GetVarint64(in, &n) || n > in->size()) return false;
  *out = in->substr(0, n);
  in->remove_prefix(n);
  return true;
}

}  // namespace dbx
