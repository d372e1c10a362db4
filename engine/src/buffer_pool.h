// Mapped memory for the engine's large, short-lived buffers: the delta store's arena blocks and hash
// index, and write batches past 64 KiB. A buffer given back is kept with its pages still mapped, up to
// kPooledBytes in all (process-wide), and handed to the next request of its size class, so that a new
// delta store or batch does not page-fault in fresh memory: a fault on a fresh anonymous page measured
// 2.5 µs on the benchmark machine when busy and 5.4-5.9 µs after it sat idle (its free memory handed
// back to the host), against about 25 ns of CPU to insert a small row (docs/measurements/).
// Thread-safe. Other sizes are mapped and unmapped as asked.
#pragma once

#include <cstddef>

namespace dbx::buffer_pool {

/// The smallest size class; requests below it are better served by malloc.
constexpr size_t kMinClass = size_t{64} << 10;
/// The largest size class kept for reuse.
constexpr size_t kMaxPooledClass = size_t{4} << 20;
/// At most this many bytes of given-back buffers are kept (all classes together).
constexpr size_t kPooledBytes = size_t{4} << 20;

/// The smallest size class (a power of two from kMinClass to kMaxPooledClass) that holds `bytes`, for
/// callers that may round their request up; above kMaxPooledClass, `bytes` rounded up to whole pages.
size_t ClassSize(size_t bytes);

/// Whether `bytes` is a size class: what Take keeps and reuses. Callers put buffers of other sizes on
/// the heap, where glibc reuses freed ones (below kMinClass they are small; above kMaxPooledClass a
/// fresh mapping per buffer would fault in every page).
bool IsClass(size_t bytes);

/// A page-aligned buffer of `bytes` bytes (rounded up to whole 4 KiB pages). When that is a size class,
/// a given-back buffer of it is reused if the pool has one: its bytes are then whatever its last user
/// left. Throws std::bad_alloc when the kernel has no memory, as operator new would.
char* Take(size_t bytes);

/// Gives back p, from Take(bytes) with the same `bytes`. Kept for reuse when its size is a size class
/// and the pool has room, else unmapped.
void Give(char* p, size_t bytes);

/// Bytes of given-back buffers the pool holds now.
size_t PooledBytes();

}  // namespace dbx::buffer_pool
