// Reconcile and the watches of cluster_controller.go, cut to the steps that
// have something to act on here (docs/reference/cluster-deletion.md §1).
#include "controller/cluster_reconciler.h"

#include "controller/capi_names.h"
#include "controller/errors.h"

namespace mpsim {
namespace {

// cluster_controller_status.go setPhase: without infrastructure or control
// plane references the Cluster stays Pending until it is deleted.
void SetPhase(Cluster* cluster) {
  if (cluster->status.phase.empty()) cluster->status.phase = capi::kClusterPhasePending;
  if (cluster->meta.deletion_timestamp) cluster->status.phase = capi::kClusterPhaseDeleting;
}

bool IsControlPlaneMachine(const Machine& m) {
  return m.meta.labels.find(capi::kMachineControlPlaneLabel) != m.meta.labels.end();
}

}  // namespace

void ClusterReconciler::Setup(Builder* b) {
  b->WatchClusters(
      [](const WatchEvent<Cluster>& e) { return std::vector<Request>{{e.obj.meta.Key()}}; });
  // machinePoolToCluster
  b->WatchMachinePools([](const WatchEvent<MachinePool>& e) {
    if (e.obj.spec.cluster_name.empty()) return std::vector<Request>{};
    return std::vector<Request>{{{e.obj.meta.ns, e.obj.spec.cluster_name}}};
  });
  // controlPlaneMachineToCluster: only control plane Machines with a Node.
  b->WatchMachines([](const WatchEvent<Machine>& e) {
    if (!IsControlPlaneMachine(e.obj) || !e.obj.status.node_ref) return std::vector<Request>{};
    return std::vector<Request>{{{e.obj.meta.ns, e.obj.spec.cluster_name}}};
  });
}

Status ClusterReconciler::Reconcile(const Request& req, Result* result) {
  Cluster cluster;
  if (Status s = client_->Clusters().Get(req.key, &cluster); !s.ok()) {
    return s.IsNotFound() ? Status::Ok() : s;
  }
  // finalizers.EnsureFinalizer: added first, never to an object being deleted.
  if (!cluster.meta.deletion_timestamp && !HasFinalizer(cluster.meta, capi::kClusterFinalizer)) {
    const Cluster before = cluster;
    cluster.meta.finalizers.push_back(capi::kClusterFinalizer);
    return client_->Clusters().Patch(before, &cluster);
  }
  const Cluster base = cluster;  // patch.NewHelper
  // paused.EnsurePausedCondition (the Paused condition itself is not written here).
  if (cluster.spec.paused) return Status::Ok();
  ClusterScope s{.cluster = &cluster};
  // alwaysReconcile: reconcileInfrastructure and reconcileControlPlane have
  // no reference to follow; getDescendants.
  std::vector<Status> errs;
  if (Status st = GetDescendants(&s); !st.ok()) errs.push_back(st);
  if (cluster.meta.deletion_timestamp) {
    // doReconcile: a later phase runs after an earlier one failed, but its
    // result counts only while none has.
    Result r;
    if (Status st = ReconcileDelete(&s, &r); !st.ok()) errs.push_back(st);
    if (errs.empty()) *result = r;
  }
  // The deferred updateStatus and patchCluster.
  SetPhase(&cluster);
  if (Status st = client_->Clusters().Patch(base, &cluster); !st.ok()) errs.push_back(st);
  return Aggregate(errs);
}

}  // namespace mpsim
