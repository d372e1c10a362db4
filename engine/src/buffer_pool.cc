#include "src/buffer_pool.h"

#include <sys/mman.h>

#include <new>

#include "src/mutex.h"

namespace dbx::buffer_pool {
namespace {

constexpr size_t kPage = 4096;
constexpr int kClasses = 7;  // 64 KiB, 128 KiB, ..., 4 MiB
static_assert(kMinClass << (kClasses - 1) == kMaxPooledClass);
// Enough entries per class for the whole pool in its smallest class.
constexpr size_t kPerClass = kPooledBytes / kMinClass;

size_t PageRound(size_t bytes) { return (bytes + kPage - 1) / kPage * kPage; }
int ClassIndex(size_t class_size) {
  int i = 0;
  while ((kMinClass << i) < class_size) ++i;
  return i;
}

class Pool {
 public:
  char* Take(size_t class_size) {
    const int c = ClassIndex(class_size);
    MutexLock l(&mu_);
    if (count_[c] == 0) return nullptr;
    bytes_ -= class_size;
    return free_[c][--count_[c]];
  }
  bool Give(char* p, size_t class_size) {
    const int c = ClassIndex(class_size);
    MutexLock l(&mu_);
    if (bytes_ + class_size > kPooledBytes || count_[c] == kPerClass) return false;
    bytes_ += class_size;
    free_[c][count_[c]++] = p;
    return true;
  }
  size_t bytes() {
    MutexLock l(&mu_);
    return bytes_;
  }

 private:
  Mutex mu_;
  char* free_[kClasses][kPerClass] GUARDED_BY(mu_) = {};
  size_t count_[kClasses] GUARDED_BY(mu_) = {};
  size_t bytes_ GUARDED_BY(mu_) = 0;
};

Pool& ThePool() {
  static Pool* pool = new Pool();  // never destroyed: buffers may be given back during exit
  return *pool;
}

}  // namespace

bool IsClass(size_t bytes) { return bytes >= kMinClass && bytes <= kMaxPooledClass && (bytes & (bytes - 1)) == 0; }

size_t ClassSize(size_t bytes) {
  if (bytes > kMaxPooledClass) return PageRound(bytes);
  size_t c = kMinClass;
  while (c < bytes) c <<= 1;
  return c;
}

char* Take(size_t bytes) {
  const size_t size = PageRound(bytes);
  if (IsClass(size)) {
    if (char* p = ThePool().Take(size); p != nullptr) return p;
  }
  void* m = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) throw std::bad_alloc();
  return static_cast<char*>(m);
}

void Give(char* p, size_t bytes) {
  if (p == nullptr) return;
  const size_t size = PageRound(bytes);
  if (!IsClass(size) || !ThePool().Give(p, size)) ::munmap(p, size);
}

size_t PooledBytes() { return ThePool().bytes(); }

}  // namespace dbx::buffer_pool
