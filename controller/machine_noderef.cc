// reconcileNode of machine_controller_noderef.go and watchClusterNodes of
// machine_controller.go (docs/reference/capi-core.md §4.1).
#include "api/indexes.h"
#include "controller/capi_names.h"
#include "controller/machine_reconciler.h"

namespace mpsim {

Status MachineReconciler::ReconcileNode(MachineScope* s) {
  Machine& m = *s->machine;
  const ObjectKey cluster = s->cluster.meta.Key();
  // watchClusterNodes: only once the control plane is initialized.
  if (IsConditionTrue(s->cluster.status.conditions, capi::kControlPlaneInitializedCondition)) {
    if (Status st = client_->WatchWorkloadNodes(cluster); !st.ok()) {
      s->node_get_error = st;
      return st;
    }
  }
  if (!m.spec.provider_id || m.spec.provider_id->empty()) return Status::Ok();
  ObjectClient<Node>* nodes = nullptr;
  if (Status st = client_->WorkloadNodes(cluster, &nodes); !st.ok()) {
    s->node_get_error = st;
    return st;
  }
  // getNode: a List through the ClusterCache's providerID index.
  std::shared_ptr<const Node> node =
      nodes->GetSharedByIndex(kNodeProviderIDField, *m.spec.provider_id);
  if (node == nullptr) {
    if (m.meta.deletion_timestamp) return Status::Ok();
    if (m.status.node_ref) {
      return Status::NotFound("no matching Node for Machine \"" + m.meta.name +
                              "\" in namespace \"" + m.meta.ns +
                              "\": cannot find node with matching ProviderID");
    }
    return Status::Ok();  // the Node does not exist yet
  }
  s->node = *node;
  if (!m.status.node_ref) {
    m.status.node_ref = NodeReference{.name = node->meta.name};
    client_->RecordEvent(m.meta.Key(), "Normal", "SuccessfulSetNodeRef", node->meta.name);
  }
  m.status.node_info = node->status.node_info;
  return Status::Ok();
}

}  // namespace mpsim
