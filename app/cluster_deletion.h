// What a run that deletes its Cluster (event deleteCluster) adds to the
// world: Cluster API's Cluster controller in the capi manager, Kubernetes'
// garbage collector on the management API server, and the deletion rows.
// Runs without the event build none of it, so their outputs do not change
// (docs/architecture.md, "Contract extension: event deleteCluster").
#pragma once

#include <memory>
#include <set>
#include <string>

#include "scenario/scenario.pb.h"
#include "sim/deletion_observer.h"
#include "sim/garbage_collector.h"
#include "sim/manager.h"

namespace mpsim {

// Whether any event of `spec` deletes the Cluster.
bool DeletesCluster(const proto::ScenarioSpec& spec);

class ClusterDeletion {
 public:
  // Adds the Cluster controller to `capi`, with `qo`'s rate limits and
  // upstream's default workers.
  static void AddClusterController(Manager* capi, WorkQueueOptions qo);
  // The garbage collector sees changes with the controllers' informer lag.
  ClusterDeletion(EventLoop* loop, ApiServer* mgmt, Recorder* rec, const DistSpec& informer_lag,
                  uint64_t seed, std::set<std::string> pools);

 private:
  GarbageCollector gc_;
  DeletionObserver observer_;
};

}  // namespace mpsim
