#include "app/cluster_deletion.h"

#include <utility>

#include "controller/cluster_reconciler.h"

namespace mpsim {

bool DeletesCluster(const proto::ScenarioSpec& spec) {
  for (const proto::Event& e : spec.events()) {
    if (e.has_delete_cluster()) return true;
  }
  return false;
}

void ClusterDeletion::AddClusterController(Manager* capi, WorkQueueOptions qo) {
  qo.workers = 50;  // --cluster-concurrency (core/main.go:209)
  capi->AddController<Cluster>(
      "cluster", qo, [](Client* client) { return std::make_unique<ClusterReconciler>(client); });
}

ClusterDeletion::ClusterDeletion(EventLoop* loop, ApiServer* mgmt, Recorder* rec,
                                 const DistSpec& informer_lag, uint64_t seed,
                                 std::set<std::string> pools)
    : gc_(loop, mgmt, informer_lag, seed), observer_(mgmt, rec, std::move(pools)) {}

}  // namespace mpsim
