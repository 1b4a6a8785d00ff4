// machinepool_controller_status.go and _scope.go: the v1beta2 replica
// counters and versions written by the deferred updateStatus.
#include <string>

#include "controller/capi_names.h"
#include "controller/machinepool_internal.h"
#include "controller/versions.h"
#include "util/string_hash.h"

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

// How many Machines have each of Ready, Available and UpToDate True, as
// IsConditionTrue would say (the first condition of a type decides), in one
// walk of each Machine's conditions: with thousands of Machines each walk
// fetches them from memory, and three walks fetched them three times.
struct MachineCounts {
  int32_t ready = 0, available = 0, up_to_date = 0;
};

MachineCounts CountTrueConditions(const std::vector<std::shared_ptr<const Machine>>& machines) {
  static const std::string kReady = capi::kMachineReadyCondition;
  static const std::string kAvailable = capi::kMachineAvailableCondition;
  static const std::string kUpToDate = capi::kMachineUpToDateCondition;
  MachineCounts out;
  for (const auto& m : machines) {
    bool seen[3] = {false, false, false};
    int32_t* counters[3] = {&out.ready, &out.available, &out.up_to_date};
    for (const Condition& c : m->status.conditions) {
      const int k = BytesEqual(c.type, kReady)       ? 0
                    : BytesEqual(c.type, kAvailable) ? 1
                    : BytesEqual(c.type, kUpToDate)  ? 2
                                                     : -1;
      if (k < 0 || seen[k]) continue;
      seen[k] = true;
      *counters[k] += BytesEqual(c.status, "True") ? 1 : 0;
    }
  }
  return out;
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
  const MachineCounts counts = CountTrueConditions(machines);
  st.ready_replicas = counts.ready;
  st.available_replicas = counts.available;
  st.up_to_date_replicas = counts.up_to_date;
  st.versions = VersionsFromMachines(machines);
}

}  // namespace mpsim
