// The deletion flow of machinepool_controller.go (docs/reference/capi-core.md §3): external
// objects first, then retired Nodes (unless the timeout passed), then the
// finalizer.
#include <algorithm>

#include "controller/capi_names.h"
#include "controller/errors.h"
#include "controller/machinepool_internal.h"
#include "controller/machinepool_reconciler.h"

namespace mpsim {
namespace {

// ContractVersionedObjectReference.IsDefined.
bool IsDefined(const ObjectReference& ref) {
  return !ref.api_version.empty() || !ref.kind.empty() || !ref.name.empty();
}

// Gets one external object; *found tells whether it exists. NotFound is not an error.
template <class T>
Status FindExternal(ObjectClient<T>& c, const MachinePool& mp, const ObjectReference& ref,
                    bool* found) {
  T obj;
  Status st = c.Get({mp.meta.ns, ref.name}, &obj);
  *found = st.ok();
  if (st.ok() || st.IsNotFound()) return Status::Ok();
  return Wrap(st, "failed to get " + ref.kind + " " + ObjectKey{mp.meta.ns, ref.name}.String() +
                      " for MachinePool " + mp.meta.Key().String());
}

template <class T>
Status DeleteExternal(ObjectClient<T>& c, const MachinePool& mp, const ObjectReference& ref) {
  Status st = c.Delete({mp.meta.ns, ref.name});
  if (st.ok() || st.IsNotFound()) return Status::Ok();
  return Wrap(st, "failed to delete " + ref.kind + " \"" + ref.name + "\" for MachinePool \"" +
                      mp.meta.name + "\" in namespace \"" + mp.meta.ns + "\"");
}

// reconcileDeleteNodes (machinepool_controller.go): D4, Nodes whose providerID
// is still listed are kept.
Status ReconcileDeleteNodes(const MachinePoolDeps& d, const MachinePoolScope& s) {
  const MachinePool& mp = *s.mp;
  if (mp.status.node_refs.empty()) return Status::Ok();
  ObjectClient<Node>* nodes = nullptr;
  Status st = d.client->WorkloadNodes(s.cluster.meta.Key(), &nodes);
  if (!st.ok()) return st;
  return DeleteRetiredNodes(nodes, mp.status.node_refs, mp.spec.provider_id_list,
                            d.opts.provider_id_match);
}

}  // namespace

// isMachinePoolNodeDeleteTimeoutPassed (machinepool_controller.go).
bool IsMachinePoolNodeDeleteTimeoutPassed(const MachinePool& mp, Time now) {
  const std::optional<int32_t>& timeout =
      mp.spec.template_.spec.deletion.node_deletion_timeout_seconds;
  if (!mp.meta.deletion_timestamp || !timeout || *timeout == 0) return false;
  return *mp.meta.deletion_timestamp + *timeout * kSecond < now;
}

// reconcileDeleteExternal (machinepool_controller.go).
Status ReconcileDeleteExternal(const MachinePoolDeps& d, const MachinePool& mp, bool* ok) {
  *ok = false;
  const Bootstrap& b = mp.spec.template_.spec.bootstrap;
  const ObjectReference& infra_ref = mp.spec.template_.spec.infrastructure_ref;
  bool boot_found = false, infra_found = false;
  if (b.config_ref && IsDefined(*b.config_ref)) {
    Status st = FindExternal(d.client->BootstrapConfigs(), mp, *b.config_ref, &boot_found);
    if (!st.ok()) return st;
  }
  if (IsDefined(infra_ref)) {
    Status st = FindExternal(d.client->InfraMachinePools(), mp, infra_ref, &infra_found);
    if (!st.ok()) return st;
  }
  // Both deletes are issued in the same pass.
  if (boot_found) {
    Status st = DeleteExternal(d.client->BootstrapConfigs(), mp, *b.config_ref);
    if (!st.ok()) return st;
  }
  if (infra_found) {
    Status st = DeleteExternal(d.client->InfraMachinePools(), mp, infra_ref);
    if (!st.ok()) return st;
  }
  *ok = !boot_found && !infra_found;
  return Status::Ok();
}

// reconcileDelete (machinepool_controller.go), docs/reference/capi-core.md §3.
Status ReconcileDelete(const MachinePoolDeps& d, MachinePoolScope* s, Result*) {
  MachinePool* mp = s->mp;
  bool ok = false;
  Status st = ReconcileDeleteExternal(d, *mp, &ok);
  if (!st.ok()) return Wrap(st, "failed deleting external references");
  // Waiting for the external objects; their delete events wake us (PR #13481: no error).
  if (!ok) return Status::Ok();
  if (!IsMachinePoolNodeDeleteTimeoutPassed(*mp, d.clock->Now())) {
    st = ReconcileDeleteNodes(d, *s);
    if (!st.ok()) return Wrap(st, "failed deleting nodes");
  }
  std::erase(mp->meta.finalizers, std::string(capi::kMachinePoolFinalizer));
  return Status::Ok();
}

}  // namespace mpsim
