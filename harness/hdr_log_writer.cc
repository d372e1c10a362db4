#include "harness/hdr_log_writer.h"

#include <fmt/format.h>

#include <filesystem>

#include "common/atomic_file.h"
#include "common/output_dir.h"
#include "records/hdr_log.h"

namespace dbxb {

namespace fs = std::filesystem;

Status PrepareHdrLogDir(const std::string& dir) {
  OutputDir out;
  Status st = out.Prepare(dir, 4096);
  if (!st.ok()) {
    std::string message = st.message();
    if (message.rfind("--out: ", 0) == 0) message.erase(0, 7);
    return Status::InvalidArgument("--hdr-log: " + message);
  }
  out.Keep();
  return Status::Ok();
}

Status WritePhaseHdrLog(const std::string& dir, const PhaseResult& r, const PhaseRun& run) {
  if (run.interval_service.empty()) return Status::Ok();
  const std::string name = PhaseHdrLogFileName(r);
  fs::path path = fs::path(dir) / name;
  std::error_code ec;
  for (int n = 2; fs::exists(path, ec); ++n)
    path = fs::path(dir) / fmt::format("{}.{}.hlog", name.substr(0, name.size() - 5), n);
  const HdrLog log = PhaseHdrLog(r, run.interval_service, run.interval_from_intended);
  return WriteFileAtomically(path.string(), FormatHdrLog(log)).WithContext("--hdr-log");
}

}  // namespace dbxb
