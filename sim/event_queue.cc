#include "sim/event_queue.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <utility>

namespace mpsim {
namespace {

// Keys carry the push order above the slot index. Past this order the live
// items are renumbered 1..n (order-preserving), about once per 4e9 pushes.
constexpr uint64_t kMaxOrder = std::numeric_limits<uint32_t>::max();
constexpr uint64_t kSlotMask = 0xffffffffu;
constexpr uint64_t kSignBit = uint64_t{1} << 63;

EventId MakeId(uint32_t gen, uint32_t slot) { return (static_cast<uint64_t>(gen) << 32) | slot; }
uint64_t ToHeapTime(Time at) { return static_cast<uint64_t>(at) ^ kSignBit; }
Time FromHeapTime(uint64_t time) { return static_cast<Time>(time ^ kSignBit); }

// Strict (time, key) order as one 128-bit unsigned compare: two instructions
// and no branch, which matters in the sift loops. Keys are unique, so no two
// items tie. (Templates only because the item type's name is private.)
template <class Item>
inline bool Before(const Item& a, const Item& b) {
  const auto wide = [](const Item& x) {
    return (static_cast<unsigned __int128>(x.time) << 64) | x.key;
  };
  return wide(a) < wide(b);
}

template <class Item>
inline uint32_t SlotOf(const Item& item) {
  return static_cast<uint32_t>(item.key & kSlotMask);
}

// With the root at index 3, the children of p are 4p-8 .. 4p-5: every sibling
// group starts on a multiple of four items, that is on a cache line.
inline size_t FirstChild(size_t p) { return 4 * p - 8; }
inline size_t Parent(size_t c) { return c / 4 + 2; }

// A tournament of selects rather than branches: which child wins is a coin
// toss that a branch predictor cannot learn. REQUIRES: all four children exist.
template <class Heap>
inline size_t LeastChild(const Heap& heap, size_t parent) {
  const size_t first = FirstChild(parent);
  const size_t a = first + Before(heap[first + 1], heap[first]);
  const size_t b = first + 2 + Before(heap[first + 3], heap[first + 2]);
  return Before(heap[b], heap[a]) ? b : a;
}

// A large slot table misses the cache on every Pop. Start loading the slots
// of the next two tops (the root and its least child), so that the loads
// overlap the callback and its pushes instead of stalling the next Pop.
// Kept inline: out of line, GCC proves it pure and deletes the call.
template <class Heap, class Slots>
inline void PrefetchNextSlots(const Heap& heap, size_t root, const Slots& slots) {
  if (heap.size() <= root) return;
  __builtin_prefetch(&slots[SlotOf(heap[root])]);
  if (heap.size() < root + 5) return;
  __builtin_prefetch(&slots[SlotOf(heap[LeastChild(heap, root)])]);
}

}  // namespace

EventId EventQueue::Push(Time at, Callback cb) {
  if (next_order_ > kMaxOrder) Renumber();
  const uint32_t slot = AcquireSlot(std::move(cb));
  heap_.push_back(HeapItem{ToHeapTime(at), (next_order_++ << 32) | slot});
  SiftUp(heap_.size() - 1, kRoot);
  ++live_;
  return MakeId(slots_[slot].gen, slot);
}

bool EventQueue::Cancel(EventId id) {
  const uint64_t slot = id & kSlotMask;
  if (slot >= slots_.size()) return false;
  Slot& s = slots_[slot];
  if (s.state != SlotState::kLive || s.gen != (id >> 32)) return false;
  s.state = SlotState::kCancelled;
  s.cb = nullptr;  // release what the callback captured now, not when it surfaces
  --live_;
  ++dead_;
  // Bounds the heap at twice the live events; each rebuild is paid for by
  // the cancels that made it necessary.
  if (dead_ > live_) Compact();
  return true;
}

Time EventQueue::NextTime() {
  assert(!Empty());
  SkipCancelled();
  return FromHeapTime(heap_[kRoot].time);
}

Time EventQueue::Pop(Callback* cb) {
  assert(!Empty());
  SkipCancelled();
  const HeapItem top = heap_[kRoot];
  *cb = std::move(slots_[SlotOf(top)].cb);
  ReleaseSlot(SlotOf(top));
  RemoveTop();
  --live_;
  PrefetchNextSlots(heap_, kRoot, slots_);
  return FromHeapTime(top.time);
}

uint32_t EventQueue::AcquireSlot(Callback&& cb) {
  uint32_t slot;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
  } else {
    assert(slots_.size() < kSlotMask);
    slot = static_cast<uint32_t>(slots_.size());
    slots_.emplace_back();
  }
  Slot& s = slots_[slot];
  s.cb = std::move(cb);
  s.state = SlotState::kLive;
  return slot;
}

void EventQueue::ReleaseSlot(uint32_t slot) {
  Slot& s = slots_[slot];
  s.cb = nullptr;
  s.state = SlotState::kFree;
  s.gen = s.gen == std::numeric_limits<uint32_t>::max() ? 1 : s.gen + 1;  // zero ids stay invalid
  free_slots_.push_back(slot);
}

void EventQueue::RemoveTop() {
  const HeapItem last = heap_.back();
  heap_.pop_back();
  if (heap_.size() == kRoot) return;
  // Floyd's trick: walk the hole down to a leaf without comparing against
  // `last` (it almost always belongs near the bottom), then sift it up.
  const size_t hole = HoleToLeaf(kRoot);
  heap_[hole] = last;
  SiftUp(hole, kRoot);
}

void EventQueue::SkipCancelled() {
  while (slots_[SlotOf(heap_[kRoot])].state == SlotState::kCancelled) {
    ReleaseSlot(SlotOf(heap_[kRoot]));
    RemoveTop();
    --dead_;
  }
}

void EventQueue::DropCancelled() {
  size_t kept = kRoot;
  for (size_t i = kRoot; i < heap_.size(); ++i) {
    const uint32_t slot = SlotOf(heap_[i]);
    if (slots_[slot].state == SlotState::kCancelled) {
      ReleaseSlot(slot);
    } else {
      heap_[kept++] = heap_[i];
    }
  }
  heap_.resize(kept);
  dead_ = 0;
}

void EventQueue::Compact() {
  DropCancelled();
  if (heap_.size() < kRoot + 2) return;
  // Floyd's bottom-up build: O(n), from the last parent back to the root.
  for (size_t i = Parent(heap_.size() - 1) + 1; i-- > kRoot;) SiftDown(i);
}

void EventQueue::Renumber() {
  DropCancelled();
  // A sorted array is a valid heap, and sorting keeps (time, order) order.
  std::sort(heap_.begin() + kRoot, heap_.end(),
            [](const HeapItem& a, const HeapItem& b) { return Before(a, b); });
  next_order_ = 1;
  for (size_t i = kRoot; i < heap_.size(); ++i) {
    heap_[i].key = (next_order_++ << 32) | SlotOf(heap_[i]);
  }
  assert(next_order_ < kMaxOrder / 2);
}

size_t EventQueue::HoleToLeaf(size_t i) {
  const size_t n = heap_.size();
  for (size_t first = FirstChild(i); first + 3 < n; first = FirstChild(i)) {
    // Selects leave the CPU nothing to run ahead on, so fetch all sixteen
    // grandchildren (four adjacent lines) while this level is compared.
    const size_t grand = FirstChild(first);
    for (size_t g = grand; g < n && g < grand + 16; g += 4) __builtin_prefetch(&heap_[g]);
    const size_t best = LeastChild(heap_, i);
    heap_[i] = heap_[best];
    i = best;
  }
  const size_t first = FirstChild(i);
  if (first >= n) return i;
  size_t best = first;  // a last, partial group, all leaves
  for (size_t c = first + 1; c < n; ++c) best = Before(heap_[c], heap_[best]) ? c : best;
  heap_[i] = heap_[best];
  return best;
}

void EventQueue::SiftUp(size_t i, size_t top) {
  const HeapItem item = heap_[i];
  while (i > top) {
    const size_t parent = Parent(i);
    if (!Before(item, heap_[parent])) break;
    heap_[i] = heap_[parent];
    i = parent;
  }
  heap_[i] = item;
}

void EventQueue::SiftDown(size_t i) {
  const HeapItem item = heap_[i];
  const size_t hole = HoleToLeaf(i);
  heap_[hole] = item;
  SiftUp(hole, i);
}

}  // namespace mpsim
