#include "src/env.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace dbx {
namespace {

Status PosixError(const std::string& context, int err) { return Status::IOError(context + ": " + std::strerror(err)); }

constexpr size_t kWriteBuffer = 64 * 1024;

class PosixWritableFile final : public WritableFile {
 public:
  PosixWritableFile(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  ~PosixWritableFile() override {
    if (fd_ >= 0) (void)Close();
  }

  Status Append(std::string_view data) override {
    size_ += data.size();
    if (buf_.size() + data.size() <= kWriteBuffer) {
      buf_.append(data);
      return Status::Ok();
    }
    DBX_RETURN_IF_ERROR(Flush());
    if (data.size() >= kWriteBuffer) return WriteRaw(data.data(), data.size());
    buf_.append(data);
    return Status::Ok();
  }
  Status Flush() override {
    if (buf_.empty()) return Status::Ok();
    Status s = WriteRaw(buf_.data(), buf_.size());
    buf_.clear();
    return s;
  }
  Status Sync() override {
    DBX_RETURN_IF_ERROR(Flush());
    return SyncData();
  }
  Status SyncData() override {
    if (::fdatasync(fd_) != 0) return PosixError(path_, errno);
    return Status::Ok();
  }
  Status Close() override {
    Status s = Flush();
    if (fd_ >= 0 && ::close(fd_) != 0 && s.ok()) s = PosixError(path_, errno);
    fd_ = -1;
    return s;
  }
  void SetBytesPerSync(size_t bytes) override { bytes_per_sync_ = bytes; }
  const std::string& path() const override { return path_; }
  uint64_t size() const override { return size_; }

 private:
  Status WriteRaw(const char* p, size_t n) {
    while (n > 0) {
      ssize_t r = ::write(fd_, p, n);
      if (r < 0) {
        if (errno == EINTR) continue;
        return PosixError(path_, errno);
      }
      p += r;
      n -= static_cast<size_t>(r);
      written_ += static_cast<uint64_t>(r);
    }
    if (bytes_per_sync_ > 0) MaybeStartWriteback();
    return Status::Ok();
  }

  // At most about 2 x bytes_per_sync_ of this file are dirty or under writeback at a time.
  void MaybeStartWriteback() {
#ifdef __linux__
    if (written_ - writeback_from_ < bytes_per_sync_) return;
    // Advisory: an error here surfaces at the final fdatasync, which is what durability rests on.
    (void)::sync_file_range(fd_, static_cast<off_t>(writeback_from_), static_cast<off_t>(written_ - writeback_from_),
                            SYNC_FILE_RANGE_WRITE);
    if (writeback_from_ > waited_to_) {
      (void)::sync_file_range(fd_, static_cast<off_t>(waited_to_), static_cast<off_t>(writeback_from_ - waited_to_),
                              SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER);
      waited_to_ = writeback_from_;
    }
    writeback_from_ = written_;
#endif
  }

  std::string path_;
  int fd_;
  std::string buf_;
  uint64_t size_ = 0;
  uint64_t written_ = 0;  // bytes handed to the kernel
  size_t bytes_per_sync_ = 0;
  uint64_t writeback_from_ = 0;  // start of the range not yet sent to writeback
  uint64_t waited_to_ = 0;       // everything below has been written back
};

// Segment files are immutable once opened, so they are mapped and read in place: a block read
// costs no system call and no copy (LevelDB's Env does the same). The kernel reads around a fault
// by default; MADV_RANDOM / POSIX_FADV_RANDOM make a miss read the pages asked for only, as a
// point lookup wants (one block, not a readahead window). Where mapping fails, pread.
class PosixRandomAccessFile final : public RandomAccessFile {
 public:
  PosixRandomAccessFile(std::string name, int fd, uint64_t size) : name_(std::move(name)), fd_(fd), size_(size) {
    (void)::posix_fadvise(fd_, 0, 0, POSIX_FADV_RANDOM);
    if (size_ > 0) {
      void* p = ::mmap(nullptr, size_, PROT_READ, MAP_SHARED, fd_, 0);
      if (p != MAP_FAILED) {
        map_ = static_cast<const char*>(p);
        (void)::madvise(p, size_, MADV_RANDOM);
      }
    }
  }
  ~PosixRandomAccessFile() override {
    if (map_ != nullptr) ::munmap(const_cast<char*>(map_), size_);
    ::close(fd_);
  }
  Status Read(uint64_t offset, size_t n, std::string* scratch, std::string_view* result) const override {
    if (map_ != nullptr) {
      if (offset >= size_) {
        *result = {};
        return Status::Ok();
      }
      *result = std::string_view(map_ + offset, std::min<uint64_t>(n, size_ - offset));
      // The caller reads all of it (a block's checksum).
      WillNeed(offset, result->size());
      return Status::Ok();
    }
    scratch->resize(n);
    size_t done = 0;
    while (done < n) {
      ssize_t r = ::pread(fd_, scratch->data() + done, n - done, static_cast<off_t>(offset + done));
      if (r < 0) {
        if (errno == EINTR) continue;
        return PosixError(name_, errno);
      }
      if (r == 0) break;
      done += static_cast<size_t>(r);
    }
    *result = std::string_view(scratch->data(), done);
    return Status::Ok();
  }
  uint64_t Size() const override { return size_; }
  const std::string& name() const override { return name_; }
  bool ReadsInPlace() const override { return map_ != nullptr; }
  void WillNeed(uint64_t offset, size_t n) const override {
    // MADV_RANDOM faults read a page each, so pages not in memory are asked for in one request. A
    // range within one page (an aligned block) is one fault anyway: no system call.
    static const auto page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
    if (map_ == nullptr || offset >= size_) return;
    const uint64_t from = offset - offset % page;
    const uint64_t end = std::min<uint64_t>(offset + n, size_);
    if (end - from > page) (void)::madvise(const_cast<char*>(map_) + from, end - from, MADV_WILLNEED);
  }

 private:
  std::string name_;
  int fd_;
  uint64_t size_;
  const char* map_ = nullptr;  // the whole file, when mapped
};

class MemoryFile final : public RandomAccessFile {
 public:
  MemoryFile(std::string name, std::string contents) : name_(std::move(name)), data_(std::move(contents)) {}
  Status Read(uint64_t offset, size_t n, std::string*, std::string_view* result) const override {
    if (offset >= data_.size()) {
      *result = {};
      return Status::Ok();
    }
    *result = std::string_view(data_).substr(offset, n);
    return Status::Ok();
  }
  uint64_t Size() const override { return data_.size(); }
  const std::string& name() const override { return name_; }
  bool ReadsInPlace() const override { return true; }

 private:
  std::string name_;
  std::string data_;
};

class PosixFileLock final : public FileLock {
 public:
  explicit PosixFileLock(int fd) : fd_(fd) {}
  ~PosixFileLock() override {
    ::flock(fd_, LOCK_UN);
    ::close(fd_);
  }

 private:
  int fd_;
};

class PosixEnv final : public Env {
 public:
  Status NewWritableFile(const std::string& path, std::unique_ptr<WritableFile>* out) override {
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return PosixError(path, errno);
    *out = std::make_unique<PosixWritableFile>(path, fd);
    return Status::Ok();
  }
  Status NewRandomAccessFile(const std::string& path, std::unique_ptr<RandomAccessFile>* out) override {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return PosixError(path, errno);
    struct stat st;
    if (::fstat(fd, &st) != 0) {
      int e = errno;
      ::close(fd);
      return PosixError(path, e);
    }
    *out = std::make_unique<PosixRandomAccessFile>(path, fd, static_cast<uint64_t>(st.st_size));
    return Status::Ok();
  }
  Status RenameFile(const std::string& from, const std::string& to) override {
    if (::rename(from.c_str(), to.c_str()) != 0) return PosixError(to, errno);
    return Status::Ok();
  }
  Status RemoveFile(const std::string& path) override {
    if (::unlink(path.c_str()) != 0 && errno != ENOENT) return PosixError(path, errno);
    return Status::Ok();
  }
  bool FileExists(const std::string& path) override { return ::access(path.c_str(), F_OK) == 0; }
  Status CreateDirIfMissing(const std::string& dir, bool* created) override {
    *created = false;
    if (::mkdir(dir.c_str(), 0755) == 0) {
      *created = true;
      return Status::Ok();
    }
    if (errno == EEXIST) return Status::Ok();
    return PosixError(dir, errno);
  }
  Status SyncDir(const std::string& dir) override {
    int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return PosixError(dir, errno);
    Status s;
    if (::fsync(fd) != 0) s = PosixError(dir, errno);
    ::close(fd);
    return s;
  }
  Status ListDir(const std::string& dir, std::vector<std::string>* names) override {
    names->clear();
    DIR* d = ::opendir(dir.c_str());
    if (d == nullptr) return PosixError(dir, errno);
    while (struct dirent* e = ::readdir(d)) {
      if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0) continue;
      names->emplace_back(e->d_name);
    }
    ::closedir(d);
    return Status::Ok();
  }
  Status LockFile(const std::string& path, std::unique_ptr<FileLock>* out) override {
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return PosixError(path, errno);
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      int e = errno;
      ::close(fd);
      if (e == EWOULDBLOCK) return Status::Busy(ParentDir(path) + " is open in another DB instance");
      return PosixError(path, e);
    }
    *out = std::make_unique<PosixFileLock>(fd);
    return Status::Ok();
  }
};

}  // namespace

Env* Env::Default() {
  static Env* env = new PosixEnv();  // never destroyed: background threads may outlive statics
  return env;
}

Status Env::ReadFileToString(const std::string& path, std::string* out) {
  std::unique_ptr<RandomAccessFile> f;
  DBX_RETURN_IF_ERROR(NewRandomAccessFile(path, &f));
  std::string_view r;
  DBX_RETURN_IF_ERROR(f->Read(0, f->Size(), out, &r));
  if (r.data() != out->data()) out->assign(r);
  out->resize(r.size());
  return Status::Ok();
}

Status Env::ReplaceFileAtomically(const std::string& dir, const std::string& name, std::string_view contents) {
  std::string path = dir + "/" + name;
  std::string tmp = path + ".tmp";
  std::unique_ptr<WritableFile> f;
  DBX_RETURN_IF_ERROR(NewWritableFile(tmp, &f));
  Status s = f->Append(contents);
  if (s.ok()) s = f->Sync();
  Status c = f->Close();
  if (s.ok()) s = c;
  if (s.ok()) s = RenameFile(tmp, path);
  if (!s.ok()) {
    (void)RemoveFile(tmp);
    return s;
  }
  return SyncDir(dir);
}

std::string ParentDir(const std::string& path) {
  size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

Status WritableFile::Create(const std::string& path, std::unique_ptr<WritableFile>* out) {
  return Env::Default()->NewWritableFile(path, out);
}

Status OpenRandomAccessFile(const std::string& path, std::unique_ptr<RandomAccessFile>* out) {
  return Env::Default()->NewRandomAccessFile(path, out);
}

Status ReadFileToString(const std::string& path, std::string* out) {
  return Env::Default()->ReadFileToString(path, out);
}

bool FileExists(const std::string& path) { return Env::Default()->FileExists(path); }

std::unique_ptr<RandomAccessFile> NewMemoryFile(std::string name, std::string contents) {
  return std::make_unique<MemoryFile>(std::move(name), std::move(contents));
}

}  // namespace dbx
