// The simulator's single queue of pending events, ordered by (time, sequence
// number) so that ties break in insertion order. Cancellation is O(1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <new>
#include <vector>

#include "api/time.h"

namespace mpsim {

// Identifies a scheduled event for cancellation. Zero is never a valid id.
// An id names a slot and its generation, so a stale id could alias a new
// event only after 2^32 reuses of one slot.
using EventId = uint64_t;

class EventQueue {
 public:
  using Callback = std::function<void()>;

  EventQueue() = default;
  EventQueue(const EventQueue&) = delete;
  EventQueue& operator=(const EventQueue&) = delete;

  // Schedules cb at time `at`; events at equal times run in push order.
  EventId Push(Time at, Callback cb);
  // Cancels a pending event; false if it already ran or was cancelled.
  bool Cancel(EventId id);
  // True when no live (non-cancelled) event is pending.
  bool Empty() const { return live_ == 0; }
  size_t Size() const { return live_; }
  // Time of the earliest live event. REQUIRES: !Empty().
  Time NextTime();
  // Removes the earliest live event and returns its time and callback.
  // REQUIRES: !Empty().
  Time Pop(Callback* cb);

 private:
  friend class EventQueuePeer;  // lets tests reach the renumbering limit

  // Layout: an implicit 4-ary min-heap of 16-byte plain items, so sifting
  // never moves a std::function; callbacks wait in a slot table. The root
  // sits at index kRoot so that every group of four siblings fills exactly
  // one 64-byte cache line. Cancel only marks the slot; the dead item is
  // dropped when it reaches the top, or by Compact() once dead items
  // outnumber live ones.
  static constexpr size_t kRoot = 3;

  enum class SlotState : uint8_t { kFree, kLive, kCancelled };
  struct Slot {
    Callback cb;
    uint32_t gen = 1;  // high half of the EventId; bumped on release so stale ids miss
    SlotState state = SlotState::kFree;
  };
  struct HeapItem {
    uint64_t time;  // the Time with its sign bit flipped, so unsigned order is time order
    uint64_t key;   // push order in the high 32 bits (breaks time ties), slot in the low 32
  };
  // std::allocator with cache-line alignment, for the sibling groups above.
  template <class T>
  struct LineAligned {
    using value_type = T;
    LineAligned() = default;
    template <class U>
    LineAligned(const LineAligned<U>&) {}
    T* allocate(size_t n) {
      return static_cast<T*>(::operator new (n * sizeof(T), std::align_val_t{64}));
    }
    void deallocate(T* p, size_t) { ::operator delete (p, std::align_val_t{64}); }
    bool operator==(const LineAligned&) const = default;
  };
  using Heap = std::vector<HeapItem, LineAligned<HeapItem>>;

  uint32_t AcquireSlot(Callback&& cb);
  void ReleaseSlot(uint32_t slot);
  void RemoveTop();
  void SkipCancelled();
  void DropCancelled();
  void Compact();
  void Renumber();
  size_t HoleToLeaf(size_t i);
  void SiftUp(size_t i, size_t top);
  void SiftDown(size_t i);

  Heap heap_ = Heap(kRoot);  // kRoot padding items, then live and cancelled items
  std::vector<Slot> slots_;
  std::vector<uint32_t> free_slots_;  // reused last-in first-out
  uint64_t next_order_ = 1;           // renumbered before it needs a 33rd bit
  size_t live_ = 0;
  size_t dead_ = 0;  // cancelled items still in heap_
};

}  // namespace mpsim
