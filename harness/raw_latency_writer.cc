#include "harness/raw_latency_writer.h"

#include <fmt/format.h>

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

Status RawLatencyWriter::Open(const FilePolicy& files, const std::string& path) {
  files_ = &files;
  DBXB_RETURN_IF_ERROR(files.OpenOutputFile("--raw-latencies", path, &file_));
  return file_.Append("engine,dataset,phase,thread,op,start_ns,latency_ns,intended_start_ns\n");
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
        DBXB_RETURN_IF_ERROR(file_.Append(std::string_view(buf.data(), buf.size())));
        buf.clear();
      }
    }
  }
  return file_.Append(std::string_view(buf.data(), buf.size()));
}

Status RawLatencyWriter::Close() {
  if (!file_.is_open()) return Status::Ok();
  if (!wrote_phase_) {
    file_.Discard();
    return Status::Ok();
  }
  return files_->CommitOutputFile("--raw-latencies", &file_);
}

}  // namespace dbxb
