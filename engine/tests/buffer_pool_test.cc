// buffer_pool: size classes, reuse of given-back buffers, the pool's bound; and the users whose
// correctness depends on a reused buffer's old bytes never showing (the MemTable's hash index).
#include "src/buffer_pool.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "src/hash.h"
#include "src/mem_table.h"

namespace dbx {
namespace {

using buffer_pool::ClassSize;
using buffer_pool::kMaxPooledClass;
using buffer_pool::kMinClass;
using buffer_pool::kPooledBytes;

TEST(BufferPool, ClassSizes) {
  EXPECT_EQ(ClassSize(1), kMinClass);
  EXPECT_EQ(ClassSize(kMinClass), kMinClass);
  EXPECT_EQ(ClassSize(kMinClass + 1), 2 * kMinClass);
  EXPECT_EQ(ClassSize(300 << 10), size_t{512} << 10);
  EXPECT_EQ(ClassSize(kMaxPooledClass), kMaxPooledClass);
  EXPECT_EQ(ClassSize(kMaxPooledClass + 1), kMaxPooledClass + 4096);  // whole pages beyond
}

TEST(BufferPool, AGivenBackBufferIsTheNextOneOfItsClass) {
  const size_t size = 256 << 10;
  char* p = buffer_pool::Take(size);
  std::memset(p, 'x', size);  // its pages are now mapped
  buffer_pool::Give(p, size);
  char* q = buffer_pool::Take(size);
  EXPECT_EQ(q, p);
  EXPECT_EQ(q[size - 1], 'x');  // reused as left, not a fresh mapping
  buffer_pool::Give(q, size);
}

TEST(BufferPool, KeepsAtMostItsBoundAndNoOddSizes) {
  std::vector<char*> taken;
  for (size_t i = 0; i < 2 * kPooledBytes / kMinClass; ++i) {
    taken.push_back(buffer_pool::Take(kMinClass));
    taken.back()[0] = 1;
  }
  for (char* p : taken) buffer_pool::Give(p, kMinClass);
  EXPECT_LE(buffer_pool::PooledBytes(), kPooledBytes);
  EXPECT_GE(buffer_pool::PooledBytes(), kPooledBytes - kMaxPooledClass);  // it did keep what fit

  const size_t before = buffer_pool::PooledBytes();
  const size_t odd = 100000;  // not a class size: mapped and unmapped as asked
  char* p = buffer_pool::Take(odd);
  std::memset(p, 1, odd);
  buffer_pool::Give(p, odd);
  EXPECT_EQ(buffer_pool::PooledBytes(), before);
}

// A delta store's arena blocks and hash index come from the pool: built in buffers another user
// filled with garbage, the index must hold exactly its own keys.
TEST(BufferPool, AReusedHashIndexHoldsNoOldEntries) {
  const size_t size = 256 << 10;  // an arena block, and the index of 10,000 keys (32,768 slots)
  std::vector<char*> dirty;
  for (int i = 0; i < 4; ++i) {
    dirty.push_back(buffer_pool::Take(size));
    std::memset(dirty.back(), 0xab, size);
  }
  for (char* p : dirty) buffer_pool::Give(p, size);
  MemTable t;
  t.ReserveKeys(10000);
  for (int i = 0; i < 100; ++i) {
    std::string k = "key" + std::to_string(i);
    t.Add(k, Hash64(k), static_cast<uint64_t>(i) + 1, ValueType::kPut, "v");
  }
  EXPECT_EQ(t.TEST_OccupiedSlots(), 100u);
  for (int i = 0; i < 100; ++i) {
    std::string k = "key" + std::to_string(i);
    ASSERT_NE(t.Find(k, Hash64(k)), nullptr) << k;
  }
  EXPECT_EQ(t.Find("absent", Hash64("absent")), nullptr);
}

}  // namespace
}  // namespace dbx
