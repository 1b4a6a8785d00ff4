// The simulated clock and the loop that runs events in (time, sequence) order
// until the horizon, a budget (events, memory, a stalled clock), or an empty queue.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>

#include "api/time.h"
#include "sim/event_queue.h"

namespace mpsim {

class EventLoop : public Clock {
 public:
  enum class StopReason { kQueueEmpty, kHorizon, kEventBudget, kStalledClock, kPollBudget };
  struct Stats {
    uint64_t events = 0;
    Time end = 0;
    StopReason reason = StopReason::kQueueEmpty;
  };
  // Budgets that turn a runaway run into a clean stop instead of a hang or an
  // out-of-memory kill. The checks cost a compare or two per event.
  struct Limits {
    uint64_t max_events = std::numeric_limits<uint64_t>::max();
    // Consecutive events at one simulated time: more means a zero-delay cycle.
    uint64_t max_events_per_instant = std::numeric_limits<uint64_t>::max();
    // Called before the first event and every kPollEvery events; returning
    // true stops the run with kPollBudget (e.g. a memory budget).
    std::function<bool()> over_budget;
  };
  static constexpr uint64_t kPollEvery = 1 << 16;

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

  // Runs events with time <= horizon; stops early when a limit is reached.
  Stats Run(Time horizon, const Limits& limits);
  // Runs events with time <= horizon; stops early after max_events.
  Stats Run(Time horizon, uint64_t max_events) {
    Limits limits;
    limits.max_events = max_events;
    return Run(horizon, limits);
  }
  uint64_t events_processed() const { return events_; }

 private:
  EventQueue queue_;
  Time now_ = 0;
  uint64_t events_ = 0;
};

}  // namespace mpsim
