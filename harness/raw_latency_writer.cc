#include "harness/raw_latency_writer.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iterator>

namespace dbxb {
namespace {

// RFC 4180 quoting, only when the text needs it (names are plain identifiers in practice).
std::string CsvField(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

RawLatencyBuffer::RawLatencyBuffer(uint64_t expected) {
  const uint64_t blocks = expected == 0 ? 1 : (expected + kBlockEntries - 1) / kBlockEntries;
  for (uint64_t i = 0; i < blocks; ++i) blocks_.push_back(std::make_unique<RawLatency[]>(kBlockEntries));
  current_ = blocks_.front().get();
}

void RawLatencyBuffer::NextBlock() {
  ++full_blocks_;
  if (full_blocks_ == blocks_.size()) blocks_.push_back(std::make_unique<RawLatency[]>(kBlockEntries));
  current_ = blocks_[full_blocks_].get();
  used_ = 0;
}

RawLatencyWriter::~RawLatencyWriter() {
  if (out_.is_open()) out_.close();
  if (!partial_path_.empty()) std::remove(partial_path_.c_str());
}

Status RawLatencyWriter::Open(const std::string& path) {
  path_ = path;
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return Status::IOError(fmt::format("{}: is a directory", path));
  const std::string partial = path + ".partial";
  out_.open(partial, std::ios::out | std::ios::trunc | std::ios::binary);
  if (!out_) return Status::IOError(fmt::format("{}: cannot create: {}", path, std::strerror(errno)));
  partial_path_ = partial;
  out_ << "engine,dataset,phase,thread,op,start_ns,latency_ns,intended_start_ns\n";
  return out_ ? Status::Ok() : Status::IOError(path + ": write failed");
}

Status RawLatencyWriter::WritePhase(const std::string& engine, const std::string& dataset, const std::string& phase,
                                    const std::vector<std::string>& op_types,
                                    const std::vector<const RawLatencyBuffer*>& threads) {
  wrote_phase_ = true;
  const std::string prefix = fmt::format("{},{},{},", CsvField(engine), CsvField(dataset), CsvField(phase));
  std::vector<std::string> ops;
  for (const auto& name : op_types) ops.push_back(CsvField(name));
  fmt::memory_buffer buf;
  for (size_t t = 0; t < threads.size(); ++t) {
    const RawLatencyBuffer& b = *threads[t];
    for (uint64_t i = 0; i < b.size(); ++i) {
      const RawLatency& r = b.at(i);
      static const std::string kUnknown = "?";  // the runner never records an op outside op_types
      const std::string& op = r.op < ops.size() ? ops[r.op] : kUnknown;
      fmt::format_to(std::back_inserter(buf), "{}{},{},{},{},{}\n", prefix, t, op, r.start_ns, r.latency_ns,
                     r.intended_ns);
      if (buf.size() > (1 << 20)) {
        out_.write(buf.data(), static_cast<std::streamsize>(buf.size()));
        buf.clear();
      }
    }
  }
  out_.write(buf.data(), static_cast<std::streamsize>(buf.size()));
  return out_ ? Status::Ok() : Status::IOError(path_ + ": write failed");
}

Status RawLatencyWriter::Close() {
  if (!out_.is_open()) return Status::Ok();
  out_.flush();
  bool ok = static_cast<bool>(out_);
  out_.close();
  const std::string partial = std::move(partial_path_);
  partial_path_.clear();
  if (!ok || !wrote_phase_) {
    std::remove(partial.c_str());
    return ok ? Status::Ok() : Status::IOError(path_ + ": write failed");
  }
  if (std::rename(partial.c_str(), path_.c_str()) != 0) {
    const int err = errno;
    std::remove(partial.c_str());
    return Status::IOError(fmt::format("{}: cannot replace: {}", path_, std::strerror(err)));
  }
  return Status::Ok();
}

}  // namespace dbxb
