#include "controller/machinepool_reconciler.h"

#include <algorithm>
#include <string>

#include "controller/capi_names.h"
#include "controller/conditions.h"
#include "controller/errors.h"

namespace mpsim {
namespace {

// paused.pausedCondition: Cluster spec.paused or the paused annotation.
Condition PausedCondition(const Cluster& cluster, const MachinePool& mp) {
  std::vector<std::string> messages;
  if (cluster.spec.paused) messages.push_back("Cluster spec.paused is set to true");
  if (mp.meta.annotations.count(capi::kPausedAnnotation)) {
    messages.push_back("MachinePool has the cluster.x-k8s.io/paused annotation");
  }
  Condition c{.type = capi::kPausedCondition, .observed_generation = mp.meta.generation};
  if (messages.empty()) {
    c.status = "False";
    c.reason = capi::kNotPausedReason;
    return c;
  }
  c.status = "True";
  c.reason = capi::kPausedReason;
  for (size_t i = 0; i < messages.size(); ++i) c.message += (i ? ", " : "") + messages[i];
  return c;
}

}  // namespace

MachinePoolReconciler::MachinePoolReconciler(Client* client, const Clock* clock,
                                             MachinePoolOptions opts)
    : deps_{client, clock, opts} {}

// Reconcile (machinepool_controller.go), docs/reference/capi-core.md §1.3 steps 1-8.
Status MachinePoolReconciler::Reconcile(const Request& req, Result* result) {
  *result = {};
  MachinePool mp;
  Status s = deps_.client->MachinePools().Get(req.key, &mp);
  if (s.IsNotFound()) return Status::Ok();
  if (!s.ok()) return s;

  Cluster cluster;
  s = deps_.client->Clusters().Get({mp.meta.ns, mp.spec.cluster_name}, &cluster);
  if (!s.ok()) {
    return Wrap(s, "failed to get cluster \"" + mp.spec.cluster_name + "\" for machinepool \"" +
                       mp.meta.name + "\" in namespace \"" + mp.meta.ns + "\"");
  }
  bool added = false;
  s = EnsureFinalizer(&mp, &added);
  if (!s.ok() || added) return s;

  const MachinePool before = mp;  // patch.NewHelper snapshot
  bool paused = false, changed = false;
  s = EnsurePausedCondition(cluster, &mp, &paused, &changed);
  if (!s.ok() || paused || changed) return s;

  MachinePoolScope scope{.cluster = cluster, .mp = &mp};
  const bool deleting = mp.meta.deletion_timestamp.has_value();
  Status err = DoReconcile(deps_, &scope, deleting ? DeleteSteps() : NormalSteps(), result);
  return Finalize(&scope, before, err, result);
}

// finalizers.EnsureFinalizer (util/finalizers/finalizers.go): only while not
// deleting; appended at the end.
Status MachinePoolReconciler::EnsureFinalizer(MachinePool* mp, bool* added) {
  std::vector<std::string>& f = mp->meta.finalizers;
  if (mp->meta.deletion_timestamp ||
      std::find(f.begin(), f.end(), capi::kMachinePoolFinalizer) != f.end()) {
    return Status::Ok();
  }
  const MachinePool before = *mp;
  f.push_back(capi::kMachinePoolFinalizer);
  *added = true;
  return deps_.client->MachinePools().Patch(before, mp);
}

// util/paused/paused.go EnsurePausedCondition.
Status MachinePoolReconciler::EnsurePausedCondition(const Cluster& cluster, MachinePool* mp,
                                                    bool* paused, bool* changed) {
  Condition desired = PausedCondition(cluster, *mp);
  *paused = desired.status == "True";
  const Condition* old = FindCondition(mp->status.conditions, capi::kPausedCondition);
  const Time now = deps_.clock->Now();
  if (old != nullptr) {
    if (HasSameState(*old, desired)) return Status::Ok();
    // Only observedGeneration moved on a non-paused object: no extra reconcile.
    if (HasSameStateExceptObservedGeneration(*old, desired) && !*paused) {
      SetCondition(&mp->status.conditions, desired, now);
      return Status::Ok();
    }
  }
  const MachinePool before = *mp;
  SetCondition(&mp->status.conditions, desired, now);
  Status s = deps_.client->MachinePools().Patch(before, mp);
  if (!s.ok()) return s;
  *changed = true;
  return Status::Ok();
}

// The deferred block of Reconcile (machinepool_controller.go),
// docs/reference/capi-core.md §1.9: it also runs while a D1 panic unwinds, when
// reterr is still nil, so observedGeneration is patched; controller-runtime
// then recovers the panic as the returned error.
Status MachinePoolReconciler::Finalize(MachinePoolScope* s, const MachinePool& before, Status err,
                                       Result* result) {
  MachinePool* mp = s->mp;
  std::vector<Status> errs;
  if (!s->panicked) errs.push_back(err);
  errs.push_back(UpdateStatus(s));
  const Time now = deps_.clock->Now();
  ReconcilePhase(mp);
  SetReadySummary(mp, now);
  Status reterr = Aggregate(errs);
  // patch.Helper returns before setting observedGeneration when nothing changed.
  if (!(*mp == before)) {
    if (reterr.ok()) mp->status.observed_generation = mp->meta.generation;
    errs.push_back(Wrap(deps_.client->MachinePools().Patch(before, mp),
                        "failed to patch MachinePool " + mp->meta.Key().String()));
    reterr = Aggregate(errs);
  }
  if (s->panicked) {
    *result = {};
    return Status::Internal(kNilPointerPanic);
  }
  if (!reterr.ok()) *result = {};
  return reterr;
}

}  // namespace mpsim
