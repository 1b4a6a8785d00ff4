// reconcileExternal of machinepool_controller_phases.go, shared by the
// bootstrap config and the InfraMachinePool, including defect D1
// (docs/reference/capi-core.md §1.4, §8).
#include "controller/capi_names.h"
#include "controller/conditions.h"
#include "controller/errors.h"
#include "controller/machinepool_internal.h"
#include "controller/owner_refs.h"

namespace mpsim {
namespace {

// schema.GroupVersionKind.String(): "group/version, Kind=Kind".
std::string GvkString(const ObjectReference& ref) {
  std::string gv =
      ref.api_version.find('/') == std::string::npos ? "/" + ref.api_version : ref.api_version;
  return gv + ", Kind=" + ref.kind;
}

bool NonEmpty(const std::optional<std::string>& s) { return s.has_value() && !s->empty(); }

// At HEAD the guards are inverted (`if Deprecated != nil { Deprecated = {} }`,
// `if V1Beta1 != nil {...}`), so a non-empty failure always dereferences a nil
// V1Beta1, after wiping status.deprecated when it was set. PR #14234 flips them.
Status MirrorFailures(const MachinePoolDeps& d, MachinePoolScope* s, const ObjectReference& ref,
                      const std::string& name, const std::optional<std::string>& reason,
                      const std::optional<std::string>& message) {
  if (!NonEmpty(reason) && !NonEmpty(message)) return Status::Ok();
  MachinePool* mp = s->mp;
  if (!d.opts.fix_nil_guards) {
    if (mp->status.deprecated) mp->status.deprecated = MachinePoolDeprecatedStatus{};
    s->panicked = true;
    return Status::Internal(kNilPointerPanic);
  }
  if (NonEmpty(reason)) V1Beta1(mp).failure_reason = *reason;
  if (NonEmpty(message)) {
    V1Beta1(mp).failure_message = "Failure detected from referenced resource " + GvkString(ref) +
                                  " with name \"" + name + "\": " + *message;
  }
  return Status::Ok();
}

// reconcileExternal (machinepool_controller_phases.go), docs/reference/capi-core.md §1.4.
template <class T>
Status ReconcileExternal(const MachinePoolDeps& d, MachinePoolScope* s, ObjectClient<T>& c,
                         const ObjectReference& ref, T* obj) {
  const MachinePool& mp = *s->mp;
  const ObjectKey key{mp.meta.ns, ref.name};
  Status st = c.Get(key, obj);
  if (st.IsNotFound()) {
    return Wrap(st, "could not find " + ref.kind + " " + key.String() + " for MachinePool " +
                        mp.meta.Key().String() + ", requeuing");
  }
  if (!st.ok()) return st;
  // The watch on this kind is declared once in Setup (external.ObjectTracker).
  const T before = *obj;
  st = SetControllerReference(&obj->meta, MachinePoolControllerRef(mp.meta));
  if (!st.ok()) return st;
  obj->meta.labels[capi::kClusterNameLabel] = mp.spec.cluster_name;
  if (!(*obj == before)) {
    st = c.Patch(before, obj);  // util/patch: only the ownerRef and label
    if (!st.ok()) return st;
  }
  return MirrorFailures(d, s, ref, obj->meta.name, obj->status.failure_reason,
                        obj->status.failure_message);
}

}  // namespace

Status ReconcileExternalBootstrap(const MachinePoolDeps& d, MachinePoolScope* s,
                                  const ObjectReference& ref, BootstrapConfig* out) {
  return ReconcileExternal(d, s, d.client->BootstrapConfigs(), ref, out);
}

Status ReconcileExternalInfra(const MachinePoolDeps& d, MachinePoolScope* s,
                              const ObjectReference& ref, InfraMachinePool* out) {
  return ReconcileExternal(d, s, d.client->InfraMachinePools(), ref, out);
}

}  // namespace mpsim
