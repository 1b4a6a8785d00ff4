#include "app/report/summary.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "app/report/critical_path.h"
#include "app/report/explain.h"
#include "app/version.h"

namespace mpsim {
namespace {

const char* StopReason(EventLoop::StopReason r) {
  switch (r) {
    case EventLoop::StopReason::kQueueEmpty:
      return "queue empty";
    case EventLoop::StopReason::kHorizon:
      return "horizon";
    case EventLoop::StopReason::kEventBudget:
      return "event budget";
    case EventLoop::StopReason::kStalledClock:
      return "stalled clock";
    case EventLoop::StopReason::kPollBudget:
      return "memory budget";
  }
  return "unknown";
}

// One sentence a person can act on, naming the first thing that is off.
std::string NotConvergedReason(const PoolRecord& r) {
  if (r.deleted) return "";
  std::string why = "at the horizon: phase " + (r.phase.empty() ? std::string("<none>") : r.phase) +
                    ", ready " + std::to_string(r.ready) + "/" + std::to_string(r.desired) +
                    ", available " + std::to_string(r.available) + "/" + std::to_string(r.desired);
  if (!r.stale_versions.empty()) {
    why += "; Nodes not on " + r.version + ": " + r.stale_versions;
  }
  if (!r.unmatched_ids.empty()) {
    why += "; " + std::to_string(r.unmatched_ids.size()) +
           " providerID(s) in the InfraMachinePool never got a Node in status.nodeRefs (first: " +
           r.unmatched_ids.front() + ")";
  }
  return why;
}

// In the order the controllers first failed (then by name): the first is
// often the cause of the others.
void FillLastErrors(const std::map<std::string, ErrorTally>& errors, proto::PoolSummary* p) {
  std::vector<std::pair<Time, const std::string*>> order;
  for (const auto& [controller, e] : errors) order.emplace_back(e.first, &controller);
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
    return std::tie(a.first, *a.second) < std::tie(b.first, *b.second);
  });
  for (const auto& [first, controller] : order) {
    const ErrorTally& e = errors.at(*controller);
    proto::ControllerErrors* out = p->add_last_errors();
    out->set_controller(*controller);
    out->set_message(e.message);
    out->set_count(e.count);
    out->set_first_time_s(ToSeconds(e.first));
    out->set_last_time_s(ToSeconds(e.last));
  }
}

void FillPool(const SummaryInputs& in, const PoolRecord& r, proto::PoolSummary* p) {
  p->set_name(r.name);
  p->set_provider(r.provider);
  p->set_final_phase(r.deleted ? "Deleted" : r.phase);
  for (const auto& [phase, t] : r.phases) {
    auto* pt = p->add_phase_transitions();
    pt->set_phase(phase);
    pt->set_time_s(ToSeconds(t));
  }
  p->set_desired_replicas(r.desired);
  p->set_ready_replicas(r.ready);
  p->set_available_replicas(r.available);
  p->set_desired_version(r.version);
  p->set_node_refs(r.node_refs);
  p->set_converged(r.converged_since.has_value());
  if (r.converged_since) {
    p->set_time_to_converge_s(ToSeconds(*r.converged_since - r.last_spec_change));
  } else {
    p->set_not_converged_reason(NotConvergedReason(r));
  }
  FillLatency(r.matching_latencies, p->mutable_matching_latency_s());
  uint64_t reconciles = 0;
  for (size_t i : in.recorder->ReconcilesOf(r.name)) {
    reconciles += in.recorder->reconciles()[i].controller == "machinepool";
  }
  p->set_reconciles(reconciles);
  p->set_provider_api_calls(in.recorder->provider_api_calls(r.name));
  for (const auto& [api, n] : in.recorder->provider_api_calls_by_api(r.name)) {
    (*p->mutable_provider_api_calls_by_api())[api] = n;
  }
  FillLastErrors(in.recorder->errors(r.name), p);
  p->set_faults_injected(in.recorder->faults(r.name));
  for (const TimelineRow* row : in.recorder->RowsOf(r.name)) {
    if (row->object_kind == "Fault") ++(*p->mutable_faults_by_kind())[row->to];
  }
  const PathQuery q{r.name,
                    r.last_spec_change,
                    r.converged_since.value_or(in.stats->end),
                    r.converged_since.has_value(),
                    r.deleted,
                    p->not_converged_reason()};
  FillCriticalPath(ComputeCriticalPath(*in.recorder, q), p->mutable_critical_path());
}

}  // namespace

Duration Percentile(const std::vector<Duration>& sorted, double q) {
  size_t rank = static_cast<size_t>(std::ceil(q * static_cast<double>(sorted.size())));
  return sorted[std::clamp<size_t>(rank, 1, sorted.size()) - 1];
}

void BuildSummary(const SummaryInputs& in, proto::RunSummary* out) {
  out->set_scenario(in.scenario->metadata().name());
  out->set_seed(in.seed);
  out->set_end_time_s(ToSeconds(in.stats->end));
  out->set_events_processed(in.stats->events);
  out->set_stop_reason(StopReason(in.stats->reason));
  out->set_horizon_s(ToSeconds(in.scenario->spec().horizon()));
  out->set_mpsim_version(VersionString());
  out->set_reconciles(in.reconciles);
  out->set_api_writes(in.api_writes);
  for (const auto& p : in.scenario->spec().machine_pools()) {
    auto it = in.observer->pools().find(p.name());
    if (it == in.observer->pools().end()) continue;
    FillPool(in, it->second, out->add_pools());
  }
}

void FillLatency(std::vector<Duration> v, proto::LatencyStats* out) {
  out->set_count(v.size());
  if (v.empty()) return;
  std::sort(v.begin(), v.end());
  out->set_p50(ToSeconds(Percentile(v, 0.50)));
  out->set_p90(ToSeconds(Percentile(v, 0.90)));
  out->set_p99(ToSeconds(Percentile(v, 0.99)));
  out->set_max(ToSeconds(v.back()));
}

}  // namespace mpsim
