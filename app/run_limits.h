// Turns a scenario's spec.limits into the event loop's budgets, and a run the
// budgets stopped into the one error message the user sees (exit 2).
#pragma once

#include <string>

#include "scenario/scenario.pb.h"
#include "sim/event_loop.h"
#include "sim/recorder.h"

namespace mpsim {

// Watches one run against its limits; polled by the event loop.
class RunLimits {
 public:
  explicit RunLimits(const proto::Limits& limits) : limits_(limits) {}
  RunLimits(const RunLimits&) = delete;
  RunLimits& operator=(const RunLimits&) = delete;

  // The loop's budgets; the memory check refers to this object, which must
  // outlive the run.
  EventLoop::Limits ForLoop();

  // Empty when the run ended normally (horizon or empty queue); otherwise the
  // message naming the limit, where the run stopped and how to raise it. For a
  // stalled clock it names the objects busiest at that instant in `rec`.
  std::string Error(const EventLoop::Stats& stats, const Recorder& rec) const;

 private:
  const proto::Limits limits_;
  uint64_t resident_mib_ = 0;  // last measured, for the message
};

// "machinepool/mp-0 (120000 reconciles), Node/n-1 (40 changes)": the objects
// the recorder saw most at time t, busiest first, at most `max_objects`.
std::string BusiestObjectsAt(const Recorder& rec, Time t, size_t max_objects);

}  // namespace mpsim
