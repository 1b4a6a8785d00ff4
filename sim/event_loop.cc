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

EventLoop::Stats EventLoop::Run(Time horizon, uint64_t max_events) {
  Stats stats;
  uint64_t ran = 0;
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
    if (ran >= max_events) {
      stats.reason = StopReason::kEventBudget;
      break;
    }
    now_ = queue_.Pop(&cb);
    ++ran;
    ++events_;
    cb();
  }
  stats.events = ran;
  stats.end = now_;
  return stats;
}

}  // namespace mpsim
