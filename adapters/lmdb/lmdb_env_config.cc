#include "adapters/lmdb/lmdb_env_config.h"

#include <lmdb.h>
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <limits>
#include <system_error>

#include "adapters/native_options.h"
#include "common/units.h"

namespace dbxb::lmdb_internal {
namespace {

unsigned EnvFlagsFor(Durability d) {
  switch (d) {
    case Durability::kNone:
      return MDB_NOTLS | MDB_NOSYNC | MDB_NOMETASYNC;
    case Durability::kNormal:
      return MDB_NOTLS | MDB_NOMETASYNC;
    case Durability::kFull:
      return MDB_NOTLS;
  }
  return MDB_NOTLS;
}

// The map is one mmap of its whole size: one larger than the address space the process can still
// reserve fails at open, after the run has started. Known now by reserving it (no memory is touched).
Status CheckAddressSpace(uint64_t bytes) {
  void* p = bytes > SIZE_MAX ? MAP_FAILED
                             : mmap(nullptr, static_cast<size_t>(bytes), PROT_NONE,
                                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    return Status::InvalidArgument(std::to_string(bytes) + " bytes is more address space than this process can map (" +
                                   std::strerror(errno) + ")");
  }
  munmap(p, static_cast<size_t>(bytes));
  return Status::Ok();
}

}  // namespace

Result<EnvConfig> EnvConfigFor(const AdapterOptions& options) {
  EnvConfig config;
  config.flags = EnvFlagsFor(options.durability);
  for (const auto& [key, value] : options.native_options) {
    if (key.rfind("lmdb.", 0) != 0) continue;
    if (key == kReadaheadKey) {
      bool on = true;
      DBXB_RETURN_IF_ERROR(ParseNativeSwitch(key, value, &on));
      if (on)
        config.flags &= ~static_cast<unsigned>(MDB_NORDAHEAD);
      else
        config.flags |= MDB_NORDAHEAD;
    } else if (key == kMapSizeKey) {
      uint64_t bytes = 0;
      Status st = ParseBytes(value, &bytes);
      if (!st.ok()) return st.WithContext(key);
      if (bytes < kMinMapBytes)
        return Status::InvalidArgument(key + ": expected a byte count of at least " + std::to_string(kMinMapBytes) +
                                       ", got '" + value + "'");
      DBXB_RETURN_IF_ERROR(CheckAddressSpace(bytes).WithContext(key));
      config.map_bytes = static_cast<size_t>(bytes);
    } else {
      return Status::InvalidArgument("unknown native option '" + key + "' for engine lmdb");
    }
  }
  return config;
}

std::string FlagNames(unsigned flags) {
  static const struct {
    unsigned flag;
    const char* name;
  } kFlags[] = {
      {MDB_FIXEDMAP, "MDB_FIXEDMAP"},   {MDB_NOSUBDIR, "MDB_NOSUBDIR"},     {MDB_NOSYNC, "MDB_NOSYNC"},
      {MDB_RDONLY, "MDB_RDONLY"},       {MDB_NOMETASYNC, "MDB_NOMETASYNC"}, {MDB_WRITEMAP, "MDB_WRITEMAP"},
      {MDB_MAPASYNC, "MDB_MAPASYNC"},   {MDB_NOTLS, "MDB_NOTLS"},           {MDB_NOLOCK, "MDB_NOLOCK"},
      {MDB_NORDAHEAD, "MDB_NORDAHEAD"}, {MDB_NOMEMINIT, "MDB_NOMEMINIT"},
  };
  std::string names;
  for (const auto& f : kFlags) {
    if ((flags & f.flag) == 0) continue;
    if (!names.empty()) names += '|';
    names += f.name;
  }
  return names.empty() ? "0" : names;
}

size_t RoundDownToPage(size_t bytes) {
  const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return bytes / page * page;
}

Result<size_t> FilesystemBytes(const std::string& dir) {
  struct statvfs fs;
  if (statvfs(dir.c_str(), &fs) != 0)
    return Status::IOError("statvfs " + dir + ": " + std::error_code(errno, std::generic_category()).message());
  size_t bytes = 0;
  if (__builtin_mul_overflow(fs.f_blocks, fs.f_frsize, &bytes)) bytes = std::numeric_limits<size_t>::max();
  return bytes;
}

}  // namespace dbxb::lmdb_internal
