#include "src/mem_table.h"

#include <cassert>
#include <cstring>
#include <new>

#include "src/buffer_pool.h"
#include "src/hash.h"
#include "src/key_compare.h"

namespace dbx {
namespace {

constexpr uint64_t kPtrMask = (uint64_t{1} << 48) - 1;
inline uint64_t SlotTag(uint64_t hash) { return hash & ~kPtrMask; }
inline MemNode* SlotNode(uint64_t slot) { return reinterpret_cast<MemNode*>(slot & kPtrMask); }

}  // namespace

MemTable::HashTable::HashTable(size_t n) : mask(n - 1) {
  const size_t bytes = n * sizeof(std::atomic<uint64_t>);
  char* mem = buffer_pool::IsClass(bytes) ? buffer_pool::Take(bytes) : static_cast<char*>(::operator new(bytes));
  slots = reinterpret_cast<std::atomic<uint64_t>*>(mem);
  for (size_t i = 0; i < n; ++i) new (&slots[i]) std::atomic<uint64_t>(0);
}

MemTable::HashTable::~HashTable() {
  const size_t bytes = (mask + 1) * sizeof(std::atomic<uint64_t>);
  if (buffer_pool::IsClass(bytes))
    buffer_pool::Give(reinterpret_cast<char*>(slots), bytes);
  else
    ::operator delete(slots);
}

MemTable::MemTable() : table_(nullptr) {
  head_ = NewNode({}, kMaxHeight);
  for (auto& t : tail_) t = head_;
  for (auto& f : finger_) f = head_;
  tables_.push_back(std::make_unique<HashTable>(64));
  hash_bytes_.store(64 * sizeof(uint64_t), std::memory_order_relaxed);
  table_.store(tables_.back().get(), std::memory_order_release);
}

MemTable::~MemTable() = default;

MemNode* MemTable::NewNode(std::string_view key, int height) {
  size_t bytes = sizeof(MemNode) + sizeof(std::atomic<MemNode*>) * (height - 1) + key.size();
  char* mem = arena_.Allocate(bytes);
  auto* n = new (mem) MemNode;
  n->head.store(nullptr, std::memory_order_relaxed);
  n->key_size = static_cast<uint32_t>(key.size());
  n->height = static_cast<uint32_t>(height);
  for (int i = 0; i < height; ++i) new (&n->next[i]) std::atomic<MemNode*>(nullptr);
  if (!key.empty()) std::memcpy(reinterpret_cast<char*>(&n->next[height]), key.data(), key.size());
  return n;
}

MemVersion* MemTable::NewVersion(uint64_t tag, std::string_view value, const MemVersion* older) {
  char* mem = arena_.Allocate(sizeof(MemVersion) + value.size());
  auto* v = reinterpret_cast<MemVersion*>(mem);
  v->tag = tag;
  v->older = older;
  v->value_size = static_cast<uint32_t>(value.size());
  if (!value.empty()) std::memcpy(mem + sizeof(MemVersion), value.data(), value.size());
  return v;
}

int MemTable::RandomHeight() {
  int h = 1;
  uint64_t r = rnd_.Next();
  while (h < kMaxHeight && (r & 3) == 0) {  // branching factor 4
    ++h;
    r >>= 2;
  }
  return h;
}

const MemNode* MemTable::Find(std::string_view key, uint64_t hash) const {
  const HashTable* t = table_.load(std::memory_order_acquire);
  uint64_t tag = SlotTag(hash);
  for (size_t i = hash & t->mask;; i = (i + 1) & t->mask) {
    uint64_t s = t->slots[i].load(std::memory_order_acquire);
    if (s == 0) return nullptr;
    if ((s & ~kPtrMask) == tag) {
      const MemNode* n = SlotNode(s);
      if (KeyEqual(n->key(), key)) return n;
    }
  }
}

void MemTable::HashInsert(HashTable* t, MemNode* node, uint64_t hash) {
  assert((reinterpret_cast<uint64_t>(node) & ~kPtrMask) == 0);
  for (size_t i = hash & t->mask;; i = (i + 1) & t->mask) {
    if (t->slots[i].load(std::memory_order_relaxed) == 0) {
      t->slots[i].store(SlotTag(hash) | reinterpret_cast<uint64_t>(node), std::memory_order_release);
      return;
    }
  }
}

void MemTable::GrowHash(size_t min_keys) {
  size_t n = table_.load(std::memory_order_relaxed)->mask + 1;
  while (n < min_keys * 2) n *= 2;  // load factor <= 1/2
  auto t = std::make_unique<HashTable>(n);
  for (MemNode* x = head_->Next(0); x != nullptr; x = x->Next(0)) HashInsert(t.get(), x, Hash64(x->key()));
  table_.store(t.get(), std::memory_order_release);
  tables_.push_back(std::move(t));
  hash_bytes_.store(hash_bytes_.load(std::memory_order_relaxed) + n * sizeof(uint64_t), std::memory_order_relaxed);
}

size_t MemTable::TEST_OccupiedSlots() const {
  const HashTable* t = table_.load(std::memory_order_acquire);
  size_t n = 0;
  for (size_t i = 0; i <= t->mask; ++i) n += t->slots[i].load(std::memory_order_relaxed) != 0;
  return n;
}

void MemTable::ReserveKeys(size_t more) {
  size_t want = keys_.load(std::memory_order_relaxed) + more;
  if (want * 2 > table_.load(std::memory_order_relaxed)->mask + 1) GrowHash(want);
}

const MemNode* MemTable::SeekNode(std::string_view target) const {
  const MemNode* x = head_;
  const MemNode* nx = nullptr;
  for (int level = kMaxHeight - 1; level >= 0; --level) {
    for (;;) {
      nx = x->Next(level);
      if (nx == nullptr || !KeyLess(nx->key(), target)) break;
      x = nx;
    }
  }
  // The level-0 successor just compared, not a fresh x->Next(0): a concurrent insert may have linked
  // a node below the target between x and nx since.
  return nx;
}

MemNode* MemTable::InsertNode(std::string_view key, uint64_t hash, bool beyond_tail) {
  int height = RandomHeight();
  MemNode* prev[kMaxHeight];
  if (beyond_tail) {
    // Ascending inserts (bulk loads, merges of sorted runs) append at the tail in O(1).
    for (int i = 0; i < kMaxHeight; ++i) prev[i] = finger_[i] = tail_[i];
  } else {
    // A key above the previous insert starts from that insert's predecessors (a finger search), so
    // a sorted run of inserts costs about the distance between neighbours, not a full descent.
    const bool ascending = last_inserted_ != nullptr && KeyLess(last_inserted_->key(), key);
    MemNode* x = head_;
    for (int level = kMaxHeight - 1; level >= 0; --level) {
      if (level >= max_height_) {
        prev[level] = head_;  // empty level
        continue;
      }
      if (ascending) {
        MemNode* f = finger_[level];
        if (f != head_ && (x == head_ || KeyLess(x->key(), f->key()))) x = f;
      }
      for (;;) {
        MemNode* nx = x->next[level].load(std::memory_order_relaxed);
        if (nx == nullptr || !KeyLess(nx->key(), key)) break;
        x = nx;
      }
      prev[level] = x;
    }
    for (int i = 0; i < kMaxHeight; ++i) finger_[i] = prev[i];
  }
  MemNode* n = NewNode(key, height);
  for (int i = 0; i < height; ++i) {
    MemNode* nx = prev[i]->next[i].load(std::memory_order_relaxed);
    n->next[i].store(nx, std::memory_order_relaxed);
    if (nx == nullptr) tail_[i] = n;
  }
  for (int i = 0; i < height; ++i) prev[i]->next[i].store(n, std::memory_order_release);
  if (height > max_height_) max_height_ = height;
  last_inserted_ = n;

  HashTable* t = table_.load(std::memory_order_relaxed);
  uint64_t k = keys_.load(std::memory_order_relaxed) + 1;
  if (k * 2 > t->mask + 1) {
    GrowHash(k);  // the new node is already linked, so the rebuild includes it
  } else {
    HashInsert(t, n, hash);
  }
  keys_.store(k, std::memory_order_release);
  return n;
}

void MemTable::Prefetch(uint64_t hash) const {
  const HashTable* t = table_.load(std::memory_order_acquire);
  __builtin_prefetch(&t->slots[hash & t->mask]);
}

const MemVersion* MemTable::Add(std::string_view key, uint64_t hash, uint64_t seq, ValueType type,
                                std::string_view value, bool above_all) {
  assert(above_all == AboveAllKeys(key));
  // A key above the largest one here cannot be here: ascending loads skip the hash probe.
  MemNode* n = above_all ? nullptr : const_cast<MemNode*>(Find(key, hash));
  const MemVersion* prev = nullptr;
  if (n == nullptr) {
    n = InsertNode(key, hash, above_all);
  } else {
    prev = n->head.load(std::memory_order_relaxed);
  }
  MemVersion* v = NewVersion(PackTag(seq, type), type == ValueType::kPut ? value : std::string_view(), prev);
  n->head.store(v, std::memory_order_release);
  entries_.store(entries_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
  if (seq > max_seq_.load(std::memory_order_relaxed)) max_seq_.store(seq, std::memory_order_release);
  return prev;
}

void MemTable::AddChain(std::string_view key, uint64_t hash, const Pending* versions, size_t n) {
  if (n == 0) return;
  MemNode* last = tail_[0];
  bool beyond = last == head_ || KeyLess(last->key(), key);  // merges of ascending runs skip the probe
  MemNode* node = beyond ? nullptr : const_cast<MemNode*>(Find(key, hash));
  const MemVersion* older = nullptr;
  if (node == nullptr)
    node = InsertNode(key, hash, beyond);
  else
    older = node->head.load(std::memory_order_relaxed);
  for (size_t i = n; i-- > 0;) older = NewVersion(versions[i].tag, versions[i].value, older);
  node->head.store(older, std::memory_order_release);
  entries_.store(entries_.load(std::memory_order_relaxed) + n, std::memory_order_release);
  uint64_t seq = TagSeq(versions[0].tag);
  if (seq > max_seq_.load(std::memory_order_relaxed)) max_seq_.store(seq, std::memory_order_release);
}

}  // namespace dbx
