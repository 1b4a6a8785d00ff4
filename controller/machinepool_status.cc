// machinepool_controller_status.go and _scope.go: the v1beta2 replica
// counters and versions written by the deferred updateStatus.
#include <string>

#include "controller/capi_names.h"
#include "controller/machinepool_internal.h"
#include "controller/versions.h"
#include "util/string_hash.h"

namespace mpsim {
namespace {

// versionsFromNodeRefs (machinepool_controller_status.go): kubelet versions
// of the Nodes named in status.nodeRefs.
std::optional<std::vector<VersionCount>> VersionsFromNodeRefs(
    const std::vector<NodeReference>& node_refs, const std::optional<NodeRefMap>& node_ref_map) {
  if (node_refs.empty() || !node_ref_map || node_ref_map->empty()) return std::nullopt;
  const NodeRefMap::NameMap& nodes_by_name = NodesByName(*node_ref_map);
  std::vector<VersionCount> versions;
  for (const Node* node : FindEachByName(nodes_by_name, node_refs)) {
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

// updateStatus (machinepool_controller_status.go), docs/reference/capi-core.md §1.9.
Status UpdateStatus(MachinePoolScope* s) {
  if (!s->infra_machine_pool) return Status::Ok();  // infra missing, failed, or deleting
  bool has_mpm = false;
  Status st = HasMachinePoolMachines(*s, &has_mpm);
  if (!st.ok()) return st;
  SetReplicas(s->mp, has_mpm, s->machines, s->node_ref_map);
  return Status::Ok();
}

// hasMachinePoolMachines (machinepool_controller_scope.go).
Status HasMachinePoolMachines(const MachinePoolScope& s, bool* has) {
  *has = false;
  if (!s.infra_machine_pool) return Status::Internal("infra machine pool not set on scope");
  const std::optional<std::string>& kind = s.infra_machine_pool->status.infrastructure_machine_kind;
  *has = kind.has_value() && !kind->empty();
  return Status::Ok();
}

// setReplicas (machinepool_controller_status.go), docs/reference/capi-core.md §1.10.
void SetReplicas(MachinePool* mp, bool has_machine_pool_machines,
                 const std::vector<std::shared_ptr<const Machine>>& machines,
                 const std::optional<NodeRefMap>& node_ref_map) {
  MachinePoolStatus& st = mp->status;
  if (!has_machine_pool_machines) {
    st.ready_replicas = st.replicas;
    st.available_replicas = st.replicas;
    st.up_to_date_replicas = mp->spec.replicas;
    st.versions = VersionsFromNodeRefs(st.node_refs, node_ref_map);
    return;
  }
  const MachineCounts counts = CountTrueConditions(machines);
  st.ready_replicas = counts.ready;
  st.available_replicas = counts.available;
  st.up_to_date_replicas = counts.up_to_date;
  st.versions = VersionsFromMachines(machines);
}

}  // namespace mpsim
