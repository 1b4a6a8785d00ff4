// The simulator's single queue of pending events, ordered by (time, sequence
// number) so that ties break in insertion order. Cancellation is O(1).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "api/time.h"

namespace mpsim {

// Identifies a scheduled event for cancellation. Zero is never a valid id.
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
  struct Entry;  // defined in event_queue.cc
  // Implementation detail chosen by event_queue.cc (a d-ary heap of entries
  // plus a slot table for callbacks and cancellation).
  struct Slot {
    Callback cb;
    uint64_t seq = 0;  // 0 when the slot is free or cancelled
  };
  struct HeapItem {
    Time at;
    uint64_t seq;
    uint32_t slot;
  };
  void SkipCancelled();
  void SiftUp(size_t i);
  void SiftDown(size_t i);

  std::vector<HeapItem> heap_;
  std::vector<Slot> slots_;
  std::vector<uint32_t> free_slots_;
  uint64_t next_seq_ = 1;
  size_t live_ = 0;
};

}  // namespace mpsim
