#include "app/workload_autoscaling.h"

#include <map>

#include "api/quantity.h"
#include "app/report/pod_wait_facts.h"
#include "app/report/summary.h"

namespace mpsim {
namespace {

int64_t Milli(const std::string& quantity) {
  int64_t milli = 0;
  (void)ParseQuantityMilli(quantity, &milli);
  return milli;
}

}  // namespace

bool HasPods(const proto::ScenarioSpec& spec) {
  if (spec.has_autoscaler()) return true;
  for (const proto::Event& e : spec.events()) {
    if (e.has_pods()) return true;
  }
  return false;
}

Resources NodeAllocatable(const proto::MachinePoolSpec& pool) {
  const proto::NodeResources& r = pool.node_resources();
  return Resources{Milli(r.cpu()), Milli(r.memory()) / 1000, r.pods()};
}

std::unique_ptr<PodScheduler> MakePodScheduler(const proto::ScenarioSpec& spec, EventLoop* loop,
                                               WorkloadCluster* workload, Recorder* rec) {
  std::map<std::string, Resources> allocatable;
  for (const proto::MachinePoolSpec& p : spec.machine_pools()) {
    allocatable[p.name()] = NodeAllocatable(p);
  }
  return std::make_unique<PodScheduler>(
      loop, workload->server(), rec,
      [workload](const std::string& node) { return workload->PoolOfNode(node); },
      [allocatable](const std::string& pool) {
        auto it = allocatable.find(pool);
        return it == allocatable.end() ? Resources{} : it->second;
      });
}

std::unique_ptr<autoscaler::ClusterAutoscaler> MakeAutoscaler(
    const proto::ScenarioSpec& spec, EventLoop* loop, ApiServer* mgmt, ApiServer* workload,
    PodScheduler* pods, Recorder* rec, const std::string& ns, uint64_t seed) {
  const proto::AutoscalerSpec& a = spec.autoscaler();
  autoscaler::AutoscalerOptions o;
  o.scan_interval = a.scan_interval();
  o.max_node_provision_time = a.max_node_provision_time();
  o.scale_down_unneeded_time = a.scale_down_unneeded_time();
  o.scale_down_delay_after_add = a.scale_down_delay_after_add();
  (void)autoscaler::ParseExpander(a.expander(), &o.expander);  // validated
  o.ns = ns;
  o.seed = seed;
  return std::make_unique<autoscaler::ClusterAutoscaler>(loop, mgmt, workload, pods, rec, o);
}

void AnnotateNodeGroup(const proto::MachinePoolSpec& pool, MachinePool* mp) {
  if (!pool.has_autoscaling()) return;
  StringMap& a = mp->meta.annotations;
  a[autoscaler::kMinSizeAnnotation] = std::to_string(pool.autoscaling().min());
  a[autoscaler::kMaxSizeAnnotation] = std::to_string(pool.autoscaling().max());
  a[autoscaler::kCpuCapacityAnnotation] = pool.node_resources().cpu();
  a[autoscaler::kMemoryCapacityAnnotation] = pool.node_resources().memory();
  a[autoscaler::kMaxPodsAnnotation] = std::to_string(pool.node_resources().pods());
}

void FillAutoscalingSummary(const PodScheduler& pods, const autoscaler::ClusterAutoscaler* ca,
                            proto::RunSummary* out) {
  proto::PodsSummary* s = out->mutable_pods();
  s->set_created(pods.stats().created);
  s->set_scheduled(pods.stats().scheduled);
  s->set_pending_at_end(pods.Pending().size());
  FillLatency(pods.stats().latencies, s->mutable_scheduling_latency_s());
  if (ca == nullptr) return;
  for (proto::PoolSummary& pool : *out->mutable_pools()) {
    proto::PoolAutoscaling* p = pool.mutable_autoscaler();
    auto it = ca->stats().find(pool.name());
    if (it == ca->stats().end()) continue;
    p->set_scale_ups(it->second.scale_ups);
    p->set_scale_downs(it->second.scale_downs);
    p->set_max_replicas_seen(it->second.max_replicas_seen);
  }
}

proto::PodWaits PodWaitsOfRun(const proto::ScenarioSpec& spec, const PodScheduler& pods,
                              const Recorder& rec) {
  std::vector<std::string> pools;
  for (const proto::MachinePoolSpec& p : spec.machine_pools()) pools.push_back(p.name());
  const std::vector<const Pod*> pending = pods.Pending();  // oldest first
  PendingAtEnd left{static_cast<uint32_t>(pending.size()), std::nullopt};
  if (!pending.empty()) left.oldest_since = pending.front()->created;
  return PodWaitFacts(pools, pods.slowest_waits(), left, rec);
}

}  // namespace mpsim
