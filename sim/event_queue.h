// The simulator's single queue of pending events, ordered by (time, sequence
// number) so that ties break in insertion order. Cancellation is O(1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
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
  // Cheapest when `at` is not before the last time popped or looked at,
  // as a simulation's events never are.
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

  // Layout: a radix heap (Ahuja, Mehlhorn, Orlin and Tarjan) over the
  // integer times, because a simulation never schedules before the event it
  // is running: bucket b holds the items whose time first differs from
  // `base_` at bit b-1, bucket 0 those at `base_` itself, in push order. A
  // push appends to a bucket; a pop takes bucket 0's head, and when bucket 0
  // is spent the lowest bucket is spread over the lower ones around its
  // least time. Every move is a sequential append, where a comparison heap
  // touches log n random lines per pop. Items pushed before `base_` (only
  // after NextTime looked past a horizon, or by a caller that goes back in
  // time) wait in a small binary heap that pops first. Callbacks wait in a
  // slot table, so items are 16 plain bytes. Cancel only marks the slot; the
  // dead item is dropped when it surfaces, or by Compact() once dead items
  // outnumber live ones.
  static constexpr size_t kBuckets = 65;

  enum class SlotState : uint8_t { kFree, kLive, kCancelled };
  struct Slot {
    Callback cb;
    uint32_t gen = 1;  // high half of the EventId; bumped on release so stale ids miss
    SlotState state = SlotState::kFree;
  };
  struct Item {
    uint64_t time;  // the Time with its sign bit flipped, so unsigned order is time order
    uint64_t key;   // push order in the high 32 bits (orders the early heap), slot in the low 32
  };

  uint32_t AcquireSlot(Callback&& cb);
  void ReleaseSlot(uint32_t slot);
  bool Cancelled(const Item& item) const;
  size_t BucketOf(uint64_t time) const;
  const Item& Front();
  void PopFront();
  bool Spread();
  void DropCancelled();
  void Compact();
  void Renumber();

  std::vector<Item> buckets_[kBuckets];
  size_t head_ = 0;          // next item of buckets_[0]; those before it were popped
  uint64_t base_ = 0;        // the time of bucket 0; never above a pending item's
  std::vector<Item> early_;  // min-heap by (time, order) of items pushed before base_
  std::vector<Slot> slots_;
  std::vector<uint32_t> free_slots_;  // reused last-in first-out
  uint64_t next_order_ = 1;           // renumbered before it needs a 33rd bit
  size_t live_ = 0;
  size_t dead_ = 0;  // cancelled items still queued
};

}  // namespace mpsim
