// The scenario's timed events (scale, upgrade, delete, kill, pause, edits,
// partitions) turned into writes on the simulated management cluster.
#pragma once

#include <map>
#include <string>

#include "models/common/infra_provider.h"
#include "scenario/scenario.pb.h"
#include "sim/api_server.h"
#include "sim/event_loop.h"
#include "sim/pod_scheduler.h"
#include "sim/random.h"
#include "sim/recorder.h"
#include "sim/workload_partition.h"

namespace mpsim {

struct EventTargets {
  EventLoop* loop;
  Recorder* rec;
  ApiServer* mgmt;               // the management cluster the events write to
  WorkloadPartition* partition;  // cut by workloadUnreachable
  const std::map<std::string, InfraProvider*>* pool_providers;  // pool name -> its provider
  std::string ns;                // where the pools and the Cluster live
  std::string cluster;           // the Cluster's name
  uint64_t seed;                 // roots killInstance's own random stream
  PodScheduler* pods = nullptr;  // the workload's pods; null when the scenario has none
};

class ScenarioEventApplier {
 public:
  explicit ScenarioEventApplier(EventTargets t);
  ScenarioEventApplier(const ScenarioEventApplier&) = delete;
  ScenarioEventApplier& operator=(const ScenarioEventApplier&) = delete;

  // Puts every event on the loop at its time. `events` must outlive the run.
  void Schedule(const google::protobuf::RepeatedPtrField<proto::Event>& events);
  void Apply(const proto::Event& e);

 private:
  template <class F>
  void PatchPool(const std::string& pool, F change);
  void KillInstances(const proto::Event::KillInstance& k);
  void SetClusterPaused(bool paused);
  void SetInfraPoolSpec(const proto::Event::SetInfraPoolSpec& edit);

  EventTargets t_;
  Rng kill_rng_;
};

}  // namespace mpsim
