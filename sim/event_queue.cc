#include "sim/event_queue.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <utility>

#include "util/prefetch.h"

namespace mpsim {
namespace {

// Keys carry the push order above the slot index. Past this order the
// queued items are renumbered 1..n (order-preserving), about once per 4e9
// pushes; only the early heap compares orders.
constexpr uint64_t kMaxOrder = std::numeric_limits<uint32_t>::max();
constexpr uint64_t kSlotMask = 0xffffffffu;
constexpr uint64_t kSignBit = uint64_t{1} << 63;
// A spread bucket this small is all popped soon: its slots are loaded ahead.
// 32 beat 128 in alternated Hold runs at 1M pending (1.6-1.8x against 1.35-1.95x).
constexpr size_t kSpreadPrefetch = 32;

EventId MakeId(uint32_t gen, uint32_t slot) { return (static_cast<uint64_t>(gen) << 32) | slot; }
uint64_t ToQueueTime(Time at) { return static_cast<uint64_t>(at) ^ kSignBit; }
Time FromQueueTime(uint64_t time) { return static_cast<Time>(time ^ kSignBit); }

// Strict (time, key) order as one 128-bit unsigned compare. Keys are unique.
template <class Item>
inline bool Later(const Item& a, const Item& b) {
  const auto wide = [](const Item& x) {
    return (static_cast<unsigned __int128>(x.time) << 64) | x.key;
  };
  return wide(a) > wide(b);
}

template <class Item>
inline uint32_t SlotOf(const Item& item) {
  return static_cast<uint32_t>(item.key & kSlotMask);
}

}  // namespace

EventId EventQueue::Push(Time at, Callback cb) {
  if (next_order_ > kMaxOrder) Renumber();
  const uint32_t slot = AcquireSlot(std::move(cb));
  const Item item{ToQueueTime(at), (next_order_++ << 32) | slot};
  if (item.time < base_) {
    early_.push_back(item);
    std::push_heap(early_.begin(), early_.end(), Later<Item>);
  } else {
    buckets_[BucketOf(item.time)].push_back(item);
  }
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
  // Bounds the queue at twice the live events; each sweep is paid for by
  // the cancels that made it necessary.
  if (dead_ > live_) Compact();
  return true;
}

Time EventQueue::NextTime() {
  assert(!Empty());
  return FromQueueTime(Front().time);
}

Time EventQueue::Pop(Callback* cb) {
  assert(!Empty());
  const Item top = Front();
  *cb = std::move(slots_[SlotOf(top)].cb);
  ReleaseSlot(SlotOf(top));
  PopFront();
  --live_;
  // The next pop's slot is a miss in a large table: start loading it now,
  // so that it overlaps the callback instead of stalling that pop.
  const std::vector<Item>& b = buckets_[0];
  if (early_.empty() && head_ < b.size()) PrefetchRead(&slots_[SlotOf(b[head_])]);
  return FromQueueTime(top.time);
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

bool EventQueue::Cancelled(const Item& item) const {
  return slots_[SlotOf(item)].state == SlotState::kCancelled;
}

// 0 for base_ itself, else one more than the highest bit in which the time
// differs from base_. REQUIRES: time >= base_.
size_t EventQueue::BucketOf(uint64_t time) const {
  return time == base_ ? 0 : static_cast<size_t>(64 - __builtin_clzll(time ^ base_));
}

// The earliest live item, the cancelled ones before it dropped: the early
// heap's top if it has one (its times are all before base_), else bucket
// 0's head, spreading the lowest bucket first when bucket 0 is spent.
const EventQueue::Item& EventQueue::Front() {
  for (;;) {
    if (!early_.empty()) {
      if (!Cancelled(early_.front())) return early_.front();
      ReleaseSlot(SlotOf(early_.front()));
      PopFront();
      --dead_;
      continue;
    }
    std::vector<Item>& b = buckets_[0];
    for (; head_ < b.size(); ++head_, --dead_) {
      if (!Cancelled(b[head_])) return b[head_];
      ReleaseSlot(SlotOf(b[head_]));
    }
    b.clear();
    head_ = 0;
    const bool spread = Spread();
    assert(spread && "Front() of an empty queue");
    (void)spread;
  }
}

void EventQueue::PopFront() {
  if (!early_.empty()) {
    std::pop_heap(early_.begin(), early_.end(), Later<Item>);
    early_.pop_back();
  } else {
    ++head_;
  }
}

// Moves base_ to the least time of the lowest non-empty bucket and spreads
// that bucket over the buckets below it, in order, so items of one time
// stay in push order. The buckets above keep their items: their times
// differ from the old and the new base_ at the same bit. False if every
// bucket is empty. REQUIRES: bucket 0 is empty.
bool EventQueue::Spread() {
  size_t i = 1;
  while (i < kBuckets && buckets_[i].empty()) ++i;
  if (i == kBuckets) return false;
  std::vector<Item>& from = buckets_[i];
  uint64_t least = from.front().time;
  for (const Item& item : from) least = std::min(least, item.time);
  base_ = least;
  // The lowest bucket holds the next events to pop: when it is small, start
  // loading all their slots now, so those pops do not wait on them one by one.
  const bool soon = from.size() <= kSpreadPrefetch;
  for (const Item& item : from) {
    if (soon) PrefetchRead(&slots_[SlotOf(item)]);
    buckets_[BucketOf(item.time)].push_back(item);
  }
  from.clear();
  return true;
}

void EventQueue::DropCancelled() {
  std::vector<Item>& b0 = buckets_[0];
  b0.erase(b0.begin(), b0.begin() + static_cast<std::ptrdiff_t>(head_));
  head_ = 0;
  auto drop = [this](const Item& item) {
    if (!Cancelled(item)) return false;
    ReleaseSlot(SlotOf(item));
    return true;
  };
  for (std::vector<Item>& b : buckets_) std::erase_if(b, drop);
  std::erase_if(early_, drop);
  std::make_heap(early_.begin(), early_.end(), Later<Item>);
  dead_ = 0;
}

void EventQueue::Compact() { DropCancelled(); }

// Only the early heap compares orders; the buckets keep push order by their
// layout. New orders keep the early heap's relative order.
void EventQueue::Renumber() {
  DropCancelled();
  std::sort(early_.begin(), early_.end(),
            [](const Item& a, const Item& b) { return Later(b, a); });  // earliest first
  next_order_ = 1;
  for (Item& item : early_) item.key = (next_order_++ << 32) | SlotOf(item);
  std::make_heap(early_.begin(), early_.end(), Later<Item>);
  assert(next_order_ < kMaxOrder / 2);
}

}  // namespace mpsim
