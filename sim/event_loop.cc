#include "sim/event_loop.h"

#include <cassert>
#include <utility>

namespace mpsim {

EventId EventLoop::At(Time t, EventQueue::Callback cb) {
  assert(t >= now_);
  return queue_.Push(t < now_ ? now_ : t, std::move(cb));
}

EventId EventLoop::After(Duration d, EventQueue::Callback cb) {
  return queue_.Push(now_ + (d < 0 ? 0 : d), std::move(cb));
}

EventLoop::Stats EventLoop::Run(Time horizon, const Limits& limits) {
  Stats stats;
  uint64_t ran = 0;
  uint64_t same_instant = 0;  // events run since the clock last moved
  EventQueue::Callback cb;
  while (true) {
    if (queue_.Empty()) {
      stats.reason = StopReason::kQueueEmpty;
      break;
    }
    if (queue_.NextTime() > horizon) {
      now_ = horizon;
      stats.reason = StopReason::kHorizon;
      break;
    }
    if (ran >= limits.max_events) {
      stats.reason = StopReason::kEventBudget;
      break;
    }
    if (ran % kPollEvery == 0 && limits.over_budget && limits.over_budget()) {
      stats.reason = StopReason::kPollBudget;
      break;
    }
    const Time before = now_;
    now_ = queue_.Pop(&cb);
    same_instant = now_ == before ? same_instant + 1 : 1;
    if (same_instant > limits.max_events_per_instant) {
      // Put nothing back: the run is over, and the caller reports where it stalled.
      stats.reason = StopReason::kStalledClock;
      break;
    }
    ++ran;
    ++events_;
    cb();
  }
  stats.events = ran;
  stats.end = now_;
  return stats;
}

}  // namespace mpsim
