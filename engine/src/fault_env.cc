#include "src/fault_env.h"

#include <algorithm>

namespace dbx {
namespace {

constexpr size_t kWriteBuffer = 64 * 1024;  // as the POSIX Env: writes reach the Env in these steps

std::string BaseName(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Status NotFound(const std::string& path) { return Status::IOError(path + ": No such file or directory"); }

}  // namespace

const char* FaultOpName(FaultOp op) {
  switch (op) {
    case FaultOp::kWrite:
      return "write";
    case FaultOp::kSync:
      return "sync";
    case FaultOp::kSyncDir:
      return "syncdir";
    case FaultOp::kRename:
      return "rename";
    case FaultOp::kCreate:
      return "create";
    case FaultOp::kRemove:
      return "remove";
  }
  return "unknown";
}

const char* FaultKindName(FaultKind kind) {
  switch (kind) {
    case FaultKind::kEIO:
      return "EIO";
    case FaultKind::kENOSPC:
      return "ENOSPC";
    case FaultKind::kShortWrite:
      return "short-write";
  }
  return "unknown";
}

class FaultEnv::File final : public WritableFile {
 public:
  File(FaultEnv* env, std::string path, std::shared_ptr<Inode> inode)
      : env_(env), path_(std::move(path)), inode_(std::move(inode)) {}
  ~File() override { (void)Flush(); }

  Status Append(std::string_view data) override {
    size_ += data.size();
    if (buf_.size() + data.size() <= kWriteBuffer) {
      buf_.append(data);
      return Status::Ok();
    }
    DBX_RETURN_IF_ERROR(Flush());
    if (data.size() >= kWriteBuffer) {
      MutexLock l(&env_->mu_);
      return env_->Write(path_, inode_, data);
    }
    buf_.append(data);
    return Status::Ok();
  }
  Status Flush() override {
    if (buf_.empty()) return Status::Ok();
    Status s;
    {
      MutexLock l(&env_->mu_);
      s = env_->Write(path_, inode_, buf_);
    }
    buf_.clear();
    return s;
  }
  Status Sync() override {
    DBX_RETURN_IF_ERROR(Flush());
    return SyncData();
  }
  Status SyncData() override {
    MutexLock l(&env_->mu_);
    return env_->Sync(path_, inode_);
  }
  Status Close() override { return Flush(); }
  const std::string& path() const override { return path_; }
  uint64_t size() const override { return size_; }

 private:
  FaultEnv* env_;
  std::string path_;
  std::shared_ptr<Inode> inode_;
  std::string buf_;
  uint64_t size_ = 0;
};

class FaultEnv::Reader final : public RandomAccessFile {
 public:
  Reader(FaultEnv* env, std::string path, std::shared_ptr<Inode> inode, uint64_t size)
      : env_(env), path_(std::move(path)), inode_(std::move(inode)), size_(size) {}
  Status Read(uint64_t offset, size_t n, std::string* scratch, std::string_view* result) const override {
    MutexLock l(&env_->mu_);
    const std::string& d = inode_->data;
    size_t from = std::min<uint64_t>(offset, d.size());
    scratch->assign(d, from, std::min(n, d.size() - from));
    *result = *scratch;
    return Status::Ok();
  }
  uint64_t Size() const override { return size_; }
  const std::string& name() const override { return path_; }

 private:
  FaultEnv* env_;
  std::string path_;
  std::shared_ptr<Inode> inode_;
  uint64_t size_;
};

class FaultEnv::Lock final : public FileLock {
 public:
  Lock(FaultEnv* env, std::string path) : env_(env), path_(std::move(path)) {}
  ~Lock() override {
    MutexLock l(&env_->mu_);
    env_->locked_.erase(path_);
  }

 private:
  FaultEnv* env_;
  std::string path_;
};

FaultEnv::~FaultEnv() = default;

Status FaultEnv::BeginOp(FaultOp op, const std::string& path, FaultKind* fault) {
  counts_[static_cast<int>(op)]++;
  if (dead_.load()) return Status::IOError(path + ": power cut (injected)");
  if (cut_after_ > 0 && --cut_after_ == 0) {
    dead_.store(true);
    cut_at_ = std::string(FaultOpName(op)) + " " + BaseName(path);
    ++fired_;
    return Status::IOError(path + ": power cut (injected)");
  }
  for (auto it = faults_.begin(); it != faults_.end(); ++it) {
    if (it->op != op || !EndsWith(path, it->suffix) || --it->remaining > 0) continue;
    FaultKind kind = it->kind;
    faults_.erase(it);
    ++fired_;
    if (fault != nullptr) *fault = kind;
    if (kind == FaultKind::kEIO) return Status::IOError(path + ": Input/output error (injected)");
    if (kind == FaultKind::kShortWrite && op == FaultOp::kWrite)
      return Status::IOError(path + ": short write: No space left on device (injected)");
    return Status::IOError(path + ": No space left on device (injected)");
  }
  if (disk_full_ && (op == FaultOp::kWrite || op == FaultOp::kCreate)) {
    ++fired_;
    return Status::IOError(path + ": No space left on device (injected: disk full)");
  }
  return Status::Ok();
}

bool FaultEnv::Reachable(const std::string& dir, bool durable) const {
  auto it = dirs_.find(dir);
  if (it == dirs_.end()) return false;
  if (it->second.root) return true;
  std::string parent = ParentDir(dir);
  if (parent == dir) return false;
  auto p = dirs_.find(parent);
  if (p == dirs_.end()) return false;
  const std::set<std::string>& subs = durable ? p->second.durable_subdirs : p->second.subdirs;
  return subs.count(BaseName(dir)) != 0 && Reachable(parent, durable);
}

FaultEnv::Dir* FaultEnv::LiveDir(const std::string& dir) {
  if (!Reachable(dir, false)) return nullptr;
  return &dirs_[dir];
}

void FaultEnv::NoteMark(const std::string& path, const std::shared_ptr<Inode>& inode, uint64_t mark) {
  inode->pending_mark = std::max(inode->pending_mark, mark);
  // Promote every pending mark whose file is now durable under its name.
  for (auto& [name, d] : dirs_) {
    if (!Reachable(name, true)) continue;
    for (auto& [base, node] : d.durable_files) {
      if (node->pending_mark == 0) continue;
      durable_mark_ = std::max(durable_mark_, node->pending_mark);
      node->pending_mark = 0;
    }
  }
  (void)path;
}

Status FaultEnv::Write(const std::string& path, const std::shared_ptr<Inode>& inode, std::string_view data) {
  FaultKind kind = FaultKind::kEIO;
  Status s = BeginOp(FaultOp::kWrite, path, &kind);
  if (!s.ok()) {
    if (kind == FaultKind::kShortWrite && !dead_.load()) inode->data.append(data.substr(0, data.size() / 2));
    return s;
  }
  inode->data.append(data);
  return Status::Ok();
}

Status FaultEnv::Sync(const std::string& path, const std::shared_ptr<Inode>& inode) {
  DBX_RETURN_IF_ERROR(BeginOp(FaultOp::kSync, path, nullptr));
  inode->synced = inode->data.size();
  if (marker_ && EndsWith(path, mark_suffix_)) NoteMark(path, inode, marker_());
  return Status::Ok();
}

Status FaultEnv::NewWritableFile(const std::string& path, std::unique_ptr<WritableFile>* out) {
  MutexLock l(&mu_);
  DBX_RETURN_IF_ERROR(BeginOp(FaultOp::kCreate, path, nullptr));
  Dir* d = LiveDir(ParentDir(path));
  if (d == nullptr) return NotFound(path);
  std::shared_ptr<Inode>& slot = d->files[BaseName(path)];
  if (slot == nullptr) {
    slot = std::make_shared<Inode>();
  } else {  // O_TRUNC truncates the existing file in place
    slot->data.clear();
    slot->synced = 0;
  }
  *out = std::make_unique<File>(this, path, slot);
  return Status::Ok();
}

Status FaultEnv::NewRandomAccessFile(const std::string& path, std::unique_ptr<RandomAccessFile>* out) {
  MutexLock l(&mu_);
  Dir* d = LiveDir(ParentDir(path));
  auto it = d != nullptr ? d->files.find(BaseName(path)) : std::map<std::string, std::shared_ptr<Inode>>::iterator();
  if (d == nullptr || it == d->files.end()) return NotFound(path);
  *out = std::make_unique<Reader>(this, path, it->second, it->second->data.size());
  return Status::Ok();
}

Status FaultEnv::RenameFile(const std::string& from, const std::string& to) {
  MutexLock l(&mu_);
  DBX_RETURN_IF_ERROR(BeginOp(FaultOp::kRename, to, nullptr));
  Dir* fd = LiveDir(ParentDir(from));
  Dir* td = LiveDir(ParentDir(to));
  if (fd == nullptr || td == nullptr || fd->files.count(BaseName(from)) == 0) return NotFound(from);
  std::shared_ptr<Inode> inode = fd->files[BaseName(from)];
  fd->files.erase(BaseName(from));
  td->files[BaseName(to)] = std::move(inode);
  return Status::Ok();
}

Status FaultEnv::RemoveFile(const std::string& path) {
  MutexLock l(&mu_);
  DBX_RETURN_IF_ERROR(BeginOp(FaultOp::kRemove, path, nullptr));
  if (Dir* d = LiveDir(ParentDir(path)); d != nullptr) d->files.erase(BaseName(path));
  return Status::Ok();
}

bool FaultEnv::FileExists(const std::string& path) {
  MutexLock l(&mu_);
  if (Reachable(path, false)) return true;
  Dir* d = LiveDir(ParentDir(path));
  return d != nullptr && d->files.count(BaseName(path)) != 0;
}

Status FaultEnv::CreateDirIfMissing(const std::string& dir, bool* created) {
  MutexLock l(&mu_);
  *created = false;
  if (Reachable(dir, false)) return Status::Ok();
  std::string parent = ParentDir(dir);
  if (dirs_.count(parent) == 0) dirs_[parent].root = true;  // outside the Env: exists durably
  if (!Reachable(parent, false)) return NotFound(dir);
  DBX_RETURN_IF_ERROR(BeginOp(FaultOp::kCreate, dir, nullptr));
  dirs_[dir] = Dir();
  dirs_[parent].subdirs.insert(BaseName(dir));
  *created = true;
  return Status::Ok();
}

Status FaultEnv::SyncDir(const std::string& dir) {
  MutexLock l(&mu_);
  DBX_RETURN_IF_ERROR(BeginOp(FaultOp::kSyncDir, dir, nullptr));
  Dir* d = LiveDir(dir);
  if (d == nullptr) return NotFound(dir);
  d->durable_files = d->files;
  d->durable_subdirs = d->subdirs;
  if (marker_) NoteMark(dir, std::make_shared<Inode>(), 0);  // promotes marks that are durable now
  return Status::Ok();
}

Status FaultEnv::ListDir(const std::string& dir, std::vector<std::string>* names) {
  MutexLock l(&mu_);
  names->clear();
  Dir* d = LiveDir(dir);
  if (d == nullptr) return NotFound(dir);
  for (const auto& [name, inode] : d->files) names->push_back(name);
  for (const std::string& name : d->subdirs) names->push_back(name);
  return Status::Ok();
}

Status FaultEnv::LockFile(const std::string& path, std::unique_ptr<FileLock>* out) {
  MutexLock l(&mu_);
  if (dead_.load()) return Status::IOError(path + ": power cut (injected)");
  if (LiveDir(ParentDir(path)) == nullptr) return NotFound(path);
  if (!locked_.insert(path).second) return Status::Busy(ParentDir(path) + " is open in another DB instance");
  *out = std::make_unique<Lock>(this, path);
  return Status::Ok();
}

void FaultEnv::FailNth(FaultOp op, uint64_t n, FaultKind kind, std::string path_suffix) {
  MutexLock l(&mu_);
  faults_.push_back({op, std::max<uint64_t>(n, 1), kind, std::move(path_suffix)});
}

void FaultEnv::SetDiskFull(bool full) {
  MutexLock l(&mu_);
  disk_full_ = full;
}

void FaultEnv::CutPowerAfter(uint64_t n) {
  MutexLock l(&mu_);
  cut_after_ = std::max<uint64_t>(n, 1);
  cut_at_.clear();
}

void FaultEnv::CutPower() {
  MutexLock l(&mu_);
  if (!dead_.load()) cut_at_ = "idle";
  dead_.store(true);
}

bool FaultEnv::power_cut() const { return dead_.load(); }

void FaultEnv::PowerLoss() {
  MutexLock l(&mu_);
  for (auto& [name, d] : dirs_) {
    d.files = d.durable_files;
    d.subdirs = d.durable_subdirs;
    for (auto& [base, inode] : d.files) {
      inode->data.resize(inode->synced);
      inode->pending_mark = 0;
    }
  }
  std::vector<std::string> gone;
  for (const auto& [name, d] : dirs_)
    if (!Reachable(name, false)) gone.push_back(name);
  for (const std::string& name : gone) dirs_.erase(name);
  locked_.clear();
  faults_.clear();
  disk_full_ = false;
  cut_after_ = 0;
  dead_.store(false);
}

std::string FaultEnv::cut_at() const {
  MutexLock l(&mu_);
  return cut_at_;
}

uint64_t FaultEnv::count(FaultOp op) const {
  MutexLock l(&mu_);
  return counts_[static_cast<int>(op)];
}

uint64_t FaultEnv::faults_fired() const {
  MutexLock l(&mu_);
  return fired_;
}

void FaultEnv::SetSyncMarker(std::string suffix, std::function<uint64_t()> marker) {
  MutexLock l(&mu_);
  mark_suffix_ = std::move(suffix);
  marker_ = std::move(marker);
}

uint64_t FaultEnv::DurableMark() const {
  MutexLock l(&mu_);
  return durable_mark_;
}

}  // namespace dbx
