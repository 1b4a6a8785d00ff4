// machinepool_controller_status.go and _scope.go: the v1beta2 replica
// counters and versions written by the deferred updateStatus.
#include "api/prefetch.h"
#include "api/string_hash.h"
#include "controller/capi_names.h"
#include "controller/machinepool_internal.h"
#include "controller/versions.h"

namespace mpsim {
namespace {

// Runs of one version fold as they come: AggregateStatusVersions computes the
// same sums in the same first-seen order from fewer entries.
void AddVersion(const std::string& v, std::vector<VersionCount>* versions) {
  if (v.empty()) return;
  if (!versions->empty() && BytesEqual(versions->back().version, v)) {
    ++versions->back().replicas;
  } else {
    versions->push_back({v, 1});
  }
}

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

// The same, when the Node of each nodeRef is already in hand.
std::optional<std::vector<VersionCount>> VersionsFromRefNodes(
    const std::vector<std::shared_ptr<const Node>>& ref_nodes) {
  if (ref_nodes.empty()) return std::nullopt;
  std::vector<VersionCount> versions;
  const size_t n = ref_nodes.size();
  for (size_t i = 0; i < n; ++i) {
    // Each Node's version is a miss of its own: load it a few steps ahead.
    if (i + kPrefetchAhead < n) {
      PrefetchRead(&ref_nodes[i + kPrefetchAhead]->status.node_info.kubelet_version);
    }
    AddVersion(ref_nodes[i]->status.node_info.kubelet_version, &versions);
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
  // Nodes read for the nodeRefs this reconcile set, if they are still the
  // ones in status (a shared list compares by pointer).
  const bool refs_in_hand =
      !s->set_node_ref_nodes.empty() && s->mp->status.node_refs == s->set_node_refs;
  SetReplicas(s->mp, has_mpm, s->machines, s->node_ref_map,
              refs_in_hand ? &s->set_node_ref_nodes : nullptr);
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
                 const std::vector<std::shared_ptr<const Node>>* ref_nodes) {
  MachinePoolStatus& st = mp->status;
  if (!has_machine_pool_machines) {
    st.ready_replicas = st.replicas;
    st.available_replicas = st.replicas;
    st.up_to_date_replicas = mp->spec.replicas;
    st.versions =
        ref_nodes ? VersionsFromRefNodes(*ref_nodes) : VersionsFromNodeRefs(st.node_refs, nodes);
    return;
  }
  st.ready_replicas = CountTrue(machines, capi::kMachineReadyCondition);
  st.available_replicas = CountTrue(machines, capi::kMachineAvailableCondition);
  st.up_to_date_replicas = CountTrue(machines, capi::kMachineUpToDateCondition);
  st.versions = VersionsFromMachines(machines);
}

}  // namespace mpsim
