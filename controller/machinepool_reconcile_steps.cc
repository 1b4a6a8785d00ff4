// doReconcile and the step lists of machinepool_controller.go.
#include "controller/capi_names.h"
#include "controller/errors.h"
#include "controller/machinepool_internal.h"
#include "controller/owner_refs.h"

namespace mpsim {

// reconcileNormal of Reconcile (machinepool_controller.go).
std::vector<Step> NormalSteps() {
  return {
      {ReconcileSetOwnerAndLabels, "failed to set MachinePool owner and labels"},
      {ReconcileBootstrap, "failed to reconcile bootstrap config"},
      {ReconcileInfrastructure, "failed to reconcile infrastructure"},
      {GetMachinesForMachinePool, "failed to get Machines for MachinePool"},
      {ReconcileNodeRefs, "failed to reconcile nodeRefs"},
      {SetMachinesUpToDate, "failed to set machines up to date"},
  };
}

// reconcileDelete of Reconcile (machinepool_controller.go).
std::vector<Step> DeleteSteps() {
  return {
      {ReconcileSetOwnerAndLabels, "failed to set MachinePool owner and labels"},
      {ReconcileDelete, "failed to reconcile delete"},
  };
}

// util.LowestNonZeroResult (util/util.go).
Result LowestNonZeroResult(const Result& a, const Result& b) {
  const Result zero;
  if (a == zero) return b;
  if (b == zero) return a;
  if (a.requeue) return a;
  if (b.requeue) return b;
  return a.requeue_after < b.requeue_after ? a : b;
}

// doReconcile (machinepool_controller.go), docs/reference/capi-core.md §1.3 (D3:
// no step is skipped after an error).
Status DoReconcile(const MachinePoolDeps& d, MachinePoolScope* s, const std::vector<Step>& steps,
                   Result* result) {
  Result res;
  std::vector<Status> errs;
  for (const Step& step : steps) {
    Result step_result;
    Status err = step.fn(d, s, &step_result);
    if (s->panicked) {
      *result = {};
      return err;  // a panic unwinds: no later step runs
    }
    if (!err.ok()) errs.push_back(Wrap(err, step.error_prefix));
    if (!errs.empty()) continue;
    res = LowestNonZeroResult(res, step_result);
  }
  if (!errs.empty()) {
    *result = {};
    return Aggregate(errs);
  }
  *result = res;
  return Status::Ok();
}

// reconcileSetOwnerAndLabels (machinepool_controller.go): cluster-name label and
// a non-controller ownerRef to the Cluster. Never fails.
Status ReconcileSetOwnerAndLabels(const MachinePoolDeps&, MachinePoolScope* s, Result*) {
  MachinePool* mp = s->mp;
  mp->meta.labels[capi::kClusterNameLabel] = mp->spec.cluster_name;
  EnsureOwnerRef(&mp->meta.owner_references, {.api_version = capi::kGroupVersion,
                                              .kind = "Cluster",
                                              .name = s->cluster.meta.name,
                                              .uid = s->cluster.meta.uid});
  return Status::Ok();
}

}  // namespace mpsim
