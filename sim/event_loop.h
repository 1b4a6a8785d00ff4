// The simulated clock and the loop that runs events in (time, sequence) order
// until the horizon, an event budget, or an empty queue.
#pragma once

#include <cstdint>

#include "api/time.h"
#include "sim/event_queue.h"

namespace mpsim {

class EventLoop : public Clock {
 public:
  enum class StopReason { kQueueEmpty, kHorizon, kEventBudget };
  struct Stats {
    uint64_t events = 0;
    Time end = 0;
    StopReason reason = StopReason::kQueueEmpty;
  };

  EventLoop() = default;
  EventLoop(const EventLoop&) = delete;
  EventLoop& operator=(const EventLoop&) = delete;

  Time Now() const override { return now_; }
  // Schedules cb at absolute time t. REQUIRES: t >= Now().
  EventId At(Time t, EventQueue::Callback cb);
  // Schedules cb after d (d < 0 is treated as 0).
  EventId After(Duration d, EventQueue::Callback cb);
  bool Cancel(EventId id) { return queue_.Cancel(id); }
  size_t Pending() const { return queue_.Size(); }

  // Runs events with time <= horizon; stops early after max_events.
  Stats Run(Time horizon, uint64_t max_events);
  uint64_t events_processed() const { return events_; }

 private:
  EventQueue queue_;
  Time now_ = 0;
  uint64_t events_ = 0;
};

}  // namespace mpsim
