#include "harness/hdr_log_writer.h"

#include <fmt/format.h>

#include <filesystem>

#include "common/output_dir.h"
#include "records/hdr_log.h"

namespace dbxb {

namespace fs = std::filesystem;

Status PrepareHdrLogDir(const std::string& dir) {
  OutputDir out("--hdr-log");
  DBXB_RETURN_IF_ERROR(out.Prepare(dir, 4096));
  out.Keep();
  return Status::Ok();
}

Status WritePhaseHdrLog(const FilePolicy& files, const std::string& dir, const PhaseResult& r, const PhaseRun& run) {
  if (run.interval_service.empty()) return Status::Ok();
  const std::string name = PhaseHdrLogFileName(r);
  fs::path path = fs::path(dir) / name;
  std::error_code ec;
  // Never over anything that is there, a dangling link included (symlink_status).
  for (int n = 2; fs::exists(fs::symlink_status(path, ec)); ++n)
    path = fs::path(dir) / fmt::format("{}.{}.hlog", name.substr(0, name.size() - 5), n);
  const HdrLog log = PhaseHdrLog(r, run.interval_service, run.interval_from_intended);
  return files.WriteOutputFile("--hdr-log", path.string(), FormatHdrLog(log));
}

}  // namespace dbxb
