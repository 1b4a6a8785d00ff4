// reconcileDelete of machine_controller.go, cut to what a MachinePool
// Machine goes through (docs/reference/capi-core.md §4.1).
#include <algorithm>

#include "controller/capi_names.h"
#include "controller/machine_reconciler.h"

namespace mpsim {

Status MachineReconciler::ReconcileDelete(MachineScope* s, Result* result, bool* release) {
  const Machine& m = *s->machine;
  const ObjectReference& ref = m.spec.infrastructure_ref;
  const ObjectKey infra{ref.ns.empty() ? m.meta.ns : ref.ns, ref.name};
  InfraMachine im;
  Status st = client_->InfraMachines().Get(infra, &im);
  if (st.ok()) {
    s->infra_machine = im;
    // drainNode comes before the infrastructure is deleted.
    if (!im.meta.deletion_timestamp) {
      if (Duration left = DrainLeft(m, im); left > 0) {
        s->deleting_reason = "DrainingNode";
        result->requeue_after = left;
        return Status::Ok();
      }
      st = client_->InfraMachines().Delete(infra);
      if (!st.ok() && !st.IsNotFound()) return st;
    }
    // reconcileDeleteInfrastructure: wait for the object to be gone (its
    // watch event brings us back).
    s->deleting_reason = "WaitingForInfrastructureDeletion";
    return Status::Ok();
  }
  if (!st.IsNotFound()) return st;
  s->infra_machine_is_not_found = true;
  *release = true;
  return Status::Ok();
}

Duration MachineReconciler::DrainLeft(const Machine& m, const InfraMachine& im) const {
  if (!drain_time_ || !im.status.ready.value_or(false)) return 0;
  const Time done = *m.meta.deletion_timestamp + drain_time_(m);
  return std::max<Duration>(done - clock_->Now(), 0);
}

}  // namespace mpsim
