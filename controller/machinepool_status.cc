// machinepool_controller_status.go and _scope.go: the v1beta2 replica
// counters and versions written by the deferred updateStatus.
#include "controller/capi_names.h"
#include "controller/machinepool_internal.h"
#include "controller/versions.h"

namespace mpsim {
namespace {

// versionsFromNodeRefs: kubelet versions of the Nodes named in status.nodeRefs.
std::optional<std::vector<VersionCount>> VersionsFromNodeRefs(
    const std::vector<NodeReference>& refs, const std::optional<NodeRefMap>& nodes) {
  if (refs.empty() || !nodes || nodes->empty()) return std::nullopt;
  std::vector<VersionCount> versions;
  for (const Node* node : NodesOfRefs(*nodes, refs)) {
    if (node != nullptr) AddVersion(node->status.node_info.kubelet_version, &versions);
  }
  return AggregateStatusVersions(versions);
}

int32_t CountTrue(const std::vector<std::shared_ptr<const Machine>>& machines, const char* type) {
  int32_t n = 0;
  for (const auto& m : machines) n += IsConditionTrue(m->status.conditions, type) ? 1 : 0;
  return n;
}

}  // namespace

Status UpdateStatus(MachinePoolScope* s) {
  if (!s->infra_machine_pool) return Status::Ok();  // infra missing, failed, or deleting
  bool has_mpm = false;
  Status st = HasMachinePoolMachines(*s, &has_mpm);
  if (!st.ok()) return st;
  // The versions of the Nodes read for the nodeRefs this reconcile set, if
  // those are still the ones in status (a shared list compares by pointer).
  const bool refs_in_hand = s->set_node_ref_versions && s->mp->status.node_refs == s->set_node_refs;
  SetReplicas(s->mp, has_mpm, s->machines, s->node_ref_map,
              refs_in_hand ? &*s->set_node_ref_versions : nullptr);
  return Status::Ok();
}

Status HasMachinePoolMachines(const MachinePoolScope& s, bool* has) {
  *has = false;
  if (!s.infra_machine_pool) return Status::Internal("infra machine pool not set on scope");
  const std::optional<std::string>& kind = s.infra_machine_pool->status.infrastructure_machine_kind;
  *has = kind.has_value() && !kind->empty();
  return Status::Ok();
}

void SetReplicas(MachinePool* mp, bool has_machine_pool_machines,
                 const std::vector<std::shared_ptr<const Machine>>& machines,
                 const std::optional<NodeRefMap>& nodes,
                 const std::vector<VersionCount>* ref_versions) {
  MachinePoolStatus& st = mp->status;
  if (!has_machine_pool_machines) {
    st.ready_replicas = st.replicas;
    st.available_replicas = st.replicas;
    st.up_to_date_replicas = mp->spec.replicas;
    st.versions = ref_versions ? AggregateStatusVersions(*ref_versions)
                               : VersionsFromNodeRefs(st.node_refs, nodes);
    return;
  }
  st.ready_replicas = CountTrue(machines, capi::kMachineReadyCondition);
  st.available_replicas = CountTrue(machines, capi::kMachineAvailableCondition);
  st.up_to_date_replicas = CountTrue(machines, capi::kMachineUpToDateCondition);
  st.versions = VersionsFromMachines(machines);
}

}  // namespace mpsim
