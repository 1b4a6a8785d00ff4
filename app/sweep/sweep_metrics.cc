#include "app/sweep/sweep_metrics.h"

#include <charconv>
#include <functional>
#include <optional>
#include <utility>

#include "app/workload_autoscaling.h"

namespace mpsim {
namespace {

using PoolMetric =
    std::pair<const char*, std::function<std::optional<double>(const proto::PoolSummary&)>>;

// Per-pool metrics; a table so that names and values cannot drift apart.
const std::vector<PoolMetric>& PoolMetrics() {
  using P = proto::PoolSummary;
  static const std::vector<PoolMetric> kMetrics = {
      {"converged", [](const P& p) { return p.converged() ? 1.0 : 0.0; }},
      {"time_to_converge_s",
       [](const P& p) {
         return p.has_time_to_converge_s() ? std::optional(p.time_to_converge_s()) : std::nullopt;
       }},
      {"matching_latency_p50_s", [](const P& p) { return p.matching_latency_s().p50(); }},
      {"matching_latency_p90_s", [](const P& p) { return p.matching_latency_s().p90(); }},
      {"matching_latency_p99_s", [](const P& p) { return p.matching_latency_s().p99(); }},
      {"matching_latency_max_s", [](const P& p) { return p.matching_latency_s().max(); }},
      {"matching_latency_count",
       [](const P& p) { return static_cast<double>(p.matching_latency_s().count()); }},
      {"desired_replicas", [](const P& p) { return p.desired_replicas(); }},
      {"ready_replicas", [](const P& p) { return p.ready_replicas(); }},
      {"available_replicas", [](const P& p) { return p.available_replicas(); }},
      {"node_refs", [](const P& p) { return p.node_refs(); }},
      {"reconciles", [](const P& p) { return static_cast<double>(p.reconciles()); }},
      {"provider_api_calls",
       [](const P& p) { return static_cast<double>(p.provider_api_calls()); }},
      {"faults_injected", [](const P& p) { return static_cast<double>(p.faults_injected()); }},
  };
  return kMetrics;
}

const char* const kRunMetrics[] = {"end_time_s", "events_processed", "reconciles", "api_writes"};

using PodsMetric = std::pair<const char*, std::function<double(const proto::PodsSummary&)>>;

// With pods in the scenario: summary.json's `pods`, after the run metrics.
const std::vector<PodsMetric>& PodsMetrics() {
  using P = proto::PodsSummary;
  static const std::vector<PodsMetric> kMetrics = {
      {"pods.created", [](const P& p) { return static_cast<double>(p.created()); }},
      {"pods.scheduled", [](const P& p) { return static_cast<double>(p.scheduled()); }},
      {"pods.pending_at_end", [](const P& p) { return static_cast<double>(p.pending_at_end()); }},
      {"pods.scheduling_latency_p50_s", [](const P& p) { return p.scheduling_latency_s().p50(); }},
      {"pods.scheduling_latency_p90_s", [](const P& p) { return p.scheduling_latency_s().p90(); }},
      {"pods.scheduling_latency_p99_s", [](const P& p) { return p.scheduling_latency_s().p99(); }},
      {"pods.scheduling_latency_max_s", [](const P& p) { return p.scheduling_latency_s().max(); }},
  };
  return kMetrics;
}

std::string Cell(std::optional<double> v) {
  if (!v) return "";
  char buf[32];
  auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, *v);
  return std::string(buf, ptr);
}

}  // namespace

std::vector<std::string> MetricNames(const proto::Scenario& scenario) {
  std::vector<std::string> names(std::begin(kRunMetrics), std::end(kRunMetrics));
  if (HasPods(scenario.spec())) {
    for (const auto& [name, get] : PodsMetrics()) names.push_back(name);
  }
  for (const auto& pool : scenario.spec().machine_pools()) {
    for (const auto& [name, get] : PoolMetrics()) names.push_back(pool.name() + "." + name);
  }
  return names;
}

std::vector<std::string> MetricCells(const proto::Scenario& scenario, const proto::RunSummary& s) {
  std::vector<std::string> cells = {
      Cell(s.end_time_s()), Cell(static_cast<double>(s.events_processed())),
      Cell(static_cast<double>(s.reconciles())), Cell(static_cast<double>(s.api_writes()))};
  if (HasPods(scenario.spec())) {
    for (const auto& [name, get] : PodsMetrics()) cells.push_back(Cell(get(s.pods())));
  }
  for (const auto& pool : scenario.spec().machine_pools()) {
    const proto::PoolSummary* found = nullptr;
    for (const proto::PoolSummary& p : s.pools()) {
      if (p.name() == pool.name()) found = &p;
    }
    for (const auto& [name, get] : PoolMetrics()) {
      cells.push_back(found ? Cell(get(*found)) : "");
    }
  }
  return cells;
}

}  // namespace mpsim
