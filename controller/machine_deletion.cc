#include "controller/machine_deletion.h"

#include <algorithm>
#include <string>

#include "controller/capi_names.h"

namespace mpsim {

void MachineDeletionReconciler::Setup(Builder* b) {
  b->WatchMachines(
      [](const WatchEvent<Machine>& e) { return std::vector<Request>{{e.obj.meta.Key()}}; });
  // The Machine controller watches its infrastructure object; core names a
  // MachinePool Machine after its InfraMachine (capi-core.md §4), so the
  // mapping needs no list.
  b->WatchInfraMachines(
      [](const WatchEvent<InfraMachine>& e) { return std::vector<Request>{{e.obj.meta.Key()}}; });
}

Status MachineDeletionReconciler::Reconcile(const Request& req, Result* result) {
  Machine m;
  if (Status s = client_->Machines().Get(req.key, &m); !s.ok()) {
    return s.IsNotFound() ? Status::Ok() : s;
  }
  const Machine base = m;
  if (!m.meta.deletion_timestamp) {
    if (HasFinalizer(m.meta, capi::kMachineFinalizer)) return Status::Ok();
    m.meta.finalizers.push_back(capi::kMachineFinalizer);
    return client_->Machines().Patch(base, &m);
  }
  if (!HasFinalizer(m.meta, capi::kMachineFinalizer)) return Status::Ok();
  // reconcileDeleteInfrastructure: issue the delete, then wait for the object
  // to be gone (its watch event brings us back).
  const ObjectKey infra{
      m.spec.infrastructure_ref.ns.empty() ? m.meta.ns : m.spec.infrastructure_ref.ns,
      m.spec.infrastructure_ref.name};
  InfraMachine im;
  Status s = client_->InfraMachines().Get(infra, &im);
  if (s.ok()) {
    if (im.meta.deletion_timestamp) return Status::Ok();
    // drainNode comes before the infrastructure is deleted
    // (machine_controller.go reconcileDelete).
    if (Duration left = DrainLeft(m, im); left > 0) {
      result->requeue_after = left;
      return Status::Ok();
    }
    s = client_->InfraMachines().Delete(infra);
    return s.IsNotFound() ? Status::Ok() : s;
  }
  if (!s.IsNotFound()) return s;
  std::erase(m.meta.finalizers, std::string(capi::kMachineFinalizer));
  return client_->Machines().Patch(base, &m);
}

Duration MachineDeletionReconciler::DrainLeft(const Machine& m, const InfraMachine& im) const {
  if (!drain_time_ || clock_ == nullptr || !im.status.ready.value_or(false)) return 0;
  const Time done = *m.meta.deletion_timestamp + drain_time_(m);
  return std::max<Duration>(done - clock_->Now(), 0);
}

}  // namespace mpsim
