#include "app/run_limits.h"

#include <algorithm>
#include <map>
#include <vector>

#include "sim/duration.h"
#include "sim/resident_memory.h"

namespace mpsim {
namespace {

constexpr uint64_t kMiB = 1 << 20;

std::string Raise(const std::string& key, uint64_t value) {
  return "; if the scenario really needs more, raise it with --set spec.limits." + key + "=" +
         std::to_string(value * 2);
}

std::string Count(uint64_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

}  // namespace

EventLoop::Limits RunLimits::ForLoop() {
  EventLoop::Limits l;
  l.max_events = limits_.max_events();
  l.max_events_per_instant = limits_.max_events_per_instant();
  const uint64_t budget = static_cast<uint64_t>(limits_.max_memory_mib());
  l.over_budget = [this, budget] {
    resident_mib_ = ResidentMemoryBytes() / kMiB;
    return resident_mib_ > budget;
  };
  return l;
}

std::string RunLimits::Error(const EventLoop::Stats& stats, const Recorder& rec) const {
  const std::string at = " at t=" + FormatDuration(stats.end);
  switch (stats.reason) {
    case EventLoop::StopReason::kQueueEmpty:
    case EventLoop::StopReason::kHorizon:
      return "";
    case EventLoop::StopReason::kEventBudget:
      return "the run stopped" + at + " after " + std::to_string(stats.events) +
             " events, its budget spec.limits.maxEvents" + Raise("maxEvents", limits_.max_events());
    case EventLoop::StopReason::kPollBudget:
      return "the run stopped" + at + " holding " + std::to_string(resident_mib_) +
             " MiB of memory, over its budget spec.limits.maxMemoryMiB (" +
             std::to_string(limits_.max_memory_mib()) + ")" +
             Raise("maxMemoryMiB", static_cast<uint64_t>(limits_.max_memory_mib()));
    case EventLoop::StopReason::kStalledClock: {
      std::string objects = BusiestObjectsAt(rec, stats.end, 5);
      if (objects.empty()) objects = "none recorded a change or a reconcile";
      return "zero-delay event loop: the simulated clock stopped" + at + " for more than " +
             std::to_string(limits_.max_events_per_instant()) +
             " events (spec.limits.maxEventsPerInstant); objects involved: " + objects;
    }
  }
  return "";
}

std::string BusiestObjectsAt(const Recorder& rec, Time t, size_t max_objects) {
  // Both logs are in time order, so the entries at t are a tail of each.
  std::map<std::string, std::pair<uint64_t, uint64_t>> seen;  // reconciles, changes
  const auto& spans = rec.reconciles();
  for (auto it = spans.rbegin(); it != spans.rend() && it->end >= t; ++it) {
    if (it->end == t) ++seen[it->controller + "/" + it->object].first;
  }
  const auto& rows = rec.rows();
  for (auto it = rows.rbegin(); it != rows.rend() && it->time >= t; ++it) {
    if (it->time == t) ++seen[it->object_kind + "/" + it->object].second;
  }
  std::vector<std::pair<uint64_t, std::string>> ranked;
  for (const auto& [name, n] : seen) ranked.push_back({n.first + n.second, name});
  // Busiest first; names break ties so the message is the same on every run.
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::string out;
  for (size_t i = 0; i < ranked.size() && i < max_objects; ++i) {
    const auto& [reconciles, changes] = seen[ranked[i].second];
    out += (i ? ", " : "") + ranked[i].second + " (";
    if (reconciles) out += Count(reconciles, "reconcile");
    if (reconciles && changes) out += ", ";
    if (changes) out += Count(changes, "change");
    out += ")";
  }
  if (ranked.size() > max_objects) {
    out += " and " + std::to_string(ranked.size() - max_objects) + " more";
  }
  return out;
}

}  // namespace mpsim
