// machinepool_controller_noderef.go (docs/reference/capi-core.md §2): nodeRefs,
// retired-node deletion and node patching, plus getNodeRefMap of
// machinepool_controller_phases.go and watchClusterNodes of
// machinepool_controller.go.
#include <algorithm>

#include "api/indexes.h"
#include "controller/capi_names.h"
#include "controller/conditions.h"
#include "controller/errors.h"
#include "controller/machinepool_internal.h"
#include "controller/noderef_util.h"
#include "controller/provider_id.h"
#include "util/string_hash.h"

namespace mpsim {
namespace {

constexpr const char* kErrNoAvailableNodes =
    "cannot find nodes with matching ProviderIDs in ProviderIDList";
constexpr Duration kNodeRefsRequeue = 30 * kSecond;

// fmt "%+v" of []corev1.ObjectReference, for the SuccessfulSetNodeRefs event.
std::string FormatNodeRefs(const std::vector<NodeReference>& refs) {
  std::string out = "[";
  for (size_t i = 0; i < refs.size(); ++i) {
    const NodeReference& r = refs[i];
    out += (i ? " {" : "{") + std::string("Kind:") + r.kind.str() +
           " Namespace: Name:" + r.name.str() + " UID:" + r.uid.str() +
           " APIVersion:" + r.api_version.str() + " ResourceVersion: FieldPath:}";
  }
  return out + "]";
}

// The validNodeRefs loop of reconcileNodeRefs: every nodeRef still names a
// listed Node with the same UID (PR #12392).
bool ValidNodeRefs(const std::vector<NodeReference>& node_refs, const NodeRefMap& node_ref_map) {
  const NodeRefMap::NameMap& node_name_map = NodesByName(node_ref_map);
  size_t i = 0;
  for (const Node* node : FindEachByName(node_name_map, node_refs)) {
    if (node == nullptr || node->meta.uid != node_refs[i++].uid) return false;
  }
  return true;
}

// The annotations patchNodes puts on every Node (desired in patchNodes).
StringMap DesiredNodeAnnotations(const MachinePool& mp) {
  static const SharedString kClusterName(capi::kClusterNameAnnotation);
  static const SharedString kClusterNamespace(capi::kClusterNamespaceAnnotation);
  static const SharedString kOwnerKind(capi::kOwnerKindAnnotation);
  static const SharedString kOwnerName(capi::kOwnerNameAnnotation);
  static const SharedString kMachinePool("MachinePool");
  return {{kClusterName, SharedString(mp.spec.cluster_name)},
          {kClusterNamespace, SharedString(mp.meta.ns)},
          {kOwnerKind, kMachinePool},
          {kOwnerName, mp.meta.name}};
}

// The keys of the Nodes that nodeRefs name, for one batched Get.
std::vector<ObjectKeyRef> NodeKeys(const std::vector<NodeReference>& node_refs) {
  std::vector<ObjectKeyRef> keys;
  keys.reserve(node_refs.size());
  for (const NodeReference& r : node_refs) keys.push_back({"", r.name, r.name.Hash()});
  return keys;
}

bool IsUninitializedTaint(const Taint& t) {
  return t.key == capi::kNodeUninitializedTaintKey && t.effect == capi::kNoSchedule;
}

// watchClusterNodes (machinepool_controller.go): the Node watch exists only
// once the control plane is initialized (D6).
Status WatchClusterNodes(const MachinePoolDeps& d, const Cluster& cluster) {
  if (!IsConditionTrue(cluster.status.conditions, capi::kControlPlaneInitializedCondition)) {
    return Status::Ok();
  }
  return d.client->WatchWorkloadNodes(cluster.meta.Key());
}

}  // namespace

// reconcileNodeRefs (machinepool_controller_noderef.go), docs/reference/capi-core.md §2.2.
Status ReconcileNodeRefs(const MachinePoolDeps& d, MachinePoolScope* s, Result* r) {
  MachinePool* mp = s->mp;
  Status st = WatchClusterNodes(d, s->cluster);
  if (!st.ok()) return st;
  if (mp->meta.deletion_timestamp) return Status::Ok();

  // Return early if there is no work to do.
  const int32_t ready_replicas = V1Beta1ReadyReplicas(*mp);
  if (mp->status.replicas.value_or(0) == ready_replicas &&
      static_cast<int64_t>(mp->status.node_refs.size()) == ready_replicas) {
    // Without a nodeRefMap the UIDs cannot be validated: reconcile.
    if (s->node_ref_map && ValidNodeRefs(mp->status.node_refs, *s->node_ref_map)) {
      MarkV1Beta1True(mp, capi::kReplicasReadyV1Beta1, d.clock->Now());
      return Status::Ok();
    }
  }

  const std::optional<ProviderIDList>& ids = mp->spec.provider_id_list;
  if ((!ids || ids->empty()) && (!mp->spec.replicas || *mp->spec.replicas != 0)) {
    return Status::Ok();  // "MachinePool doesn't have any ProviderIDs yet"
  }
  ObjectClient<Node>* cluster_client = nullptr;
  st = d.client->WorkloadNodes(s->cluster.meta.Key(), &cluster_client);
  if (!st.ok()) return st;
  st = DeleteRetiredNodes(cluster_client, mp->status.node_refs, ids, d.opts.provider_id_match);
  if (!st.ok()) return st;
  if (!s->node_ref_map) return Status::Internal("failed to get Node references");

  NodeReferencesResult res;
  st = GetNodeReferences(ids.value_or(ProviderIDList{}),
                         mp->spec.template_.spec.min_ready_seconds.value_or(0), *s->node_ref_map,
                         d.clock->Now(), d.opts.provider_id_match, &res);
  if (!st.ok()) {
    // No requeue: Nodes emit an event that triggers reconciliation (D6).
    if (IsNoAvailableNodes(st)) return Status::Ok();
    d.client->RecordEvent(mp->meta.Key(), "Warning", "FailedSetNodeRef", st.message());
    return Wrap(st, "failed to get node references");
  }

  const int32_t replicas = mp->status.replicas.value_or(0);
  MachinePoolV1Beta1Status& v1beta1 = V1Beta1(mp);
  v1beta1.ready_replicas = res.ready;
  v1beta1.available_replicas = res.available;
  v1beta1.unavailable_replicas = replicas - v1beta1.available_replicas;
  mp->status.node_refs = std::move(res.references);
  d.client->RecordEvent(mp->meta.Key(), "Normal", "SuccessfulSetNodeRefs",
                        [mp] { return FormatNodeRefs(mp->status.node_refs); });

  st = PatchNodes(cluster_client, mp->status.node_refs, *mp);
  if (!st.ok()) return st;

  const Time now = d.clock->Now();
  if (replicas != v1beta1.ready_replicas ||
      static_cast<int64_t>(mp->status.node_refs.size()) != v1beta1.ready_replicas) {
    MarkV1Beta1False(mp, capi::kReplicasReadyV1Beta1, capi::kWaitingForReplicasReadyReason,
                     capi::kSeverityInfo, "", now);
    r->requeue_after = kNodeRefsRequeue;
    return Status::Ok();
  }
  MarkV1Beta1True(mp, capi::kReplicasReadyV1Beta1, now);
  return Status::Ok();
}

// deleteRetiredNodes (machinepool_controller_noderef.go), docs/reference/capi-core.md §2.3:
// a Node that was referenced but whose providerID left the list is deleted.
Status DeleteRetiredNodes(ObjectClient<Node>* c, const std::vector<NodeReference>& node_refs,
                          const std::optional<ProviderIDList>& provider_id_list,
                          ProviderIDMatch match) {
  NodeRefMap node_refs_map;  // the later Node with a key wins
  node_refs_map.reserve(node_refs.size());
  for (std::shared_ptr<const Node>& node : c->GetSharedAll(NodeKeys(node_refs))) {
    if (node == nullptr) continue;  // "Failed to get Node, skipping"
    const auto key = HashedProviderIDKey(node->spec.provider_id, match);
    if (!key) continue;  // "No ProviderID detected, skipping"
    node_refs_map.InsertOrAssign(key->first, std::move(node), key->second);
  }
  // delete(nodeRefsMap, providerID) of every listed id: the rest is retired.
  FlatViewMap<bool> listed;
  if (provider_id_list) {
    listed.reserve(provider_id_list->size());
    for (const SharedString& provider_id : *provider_id_list) {
      const auto key = HashedProviderIDKey(provider_id, match);
      if (key) listed.InsertOrAssign(key->first, true, key->second);
    }
  }
  // Go deletes in its map's random order; key order keeps runs reproducible.
  std::vector<std::pair<std::string_view, ObjectKey>> retired;
  for (const auto& [key, node] : node_refs_map) {
    const auto hashed = HashedProviderIDKey(node->spec.provider_id, match);
    if (listed.find(key, hashed->second) == listed.end()) {
      retired.emplace_back(key, node->meta.Key());
    }
  }
  std::sort(retired.begin(), retired.end());
  for (const auto& [key, node] : retired) {
    Status st = c->Delete(node);
    if (!st.ok() && !st.IsNotFound()) return Wrap(st, "failed to delete Node");
  }
  return Status::Ok();
}

// getNodeReferences (machinepool_controller_noderef.go), docs/reference/capi-core.md §2.4.
Status GetNodeReferences(const ProviderIDList& provider_id_list, int32_t min_ready_seconds,
                         const NodeRefMap& node_refs_map, Time now, ProviderIDMatch match,
                         NodeReferencesResult* out) {
  *out = {};
  // nodeRefsMap[providerID] for each listed providerID; an empty one is
  // skipped ("No ProviderID detected, skipping").
  for (const Node* node : node_refs_map.FindEach(provider_id_list, match)) {
    if (node == nullptr) continue;
    if (IsNodeReady(node)) {
      ++out->ready;
      if (IsNodeAvailable(node, min_ready_seconds, now)) ++out->available;
    }
    out->references.push_back({.name = node->meta.name, .uid = node->meta.uid});
  }
  if (out->references.empty() && !provider_id_list.empty()) {
    *out = {};
    return Status::NotFound(kErrNoAvailableNodes);
  }
  return Status::Ok();
}

bool IsNoAvailableNodes(const Status& s) {
  return s.IsNotFound() && s.message() == kErrNoAvailableNodes;
}

// patchNodes (machinepool_controller_noderef.go), docs/reference/capi-core.md §2.5:
// annotates each referenced Node with its owner and drops the uninitialized
// taint, one Patch per Node that changes (PR #8462).
Status PatchNodes(ObjectClient<Node>* c, const std::vector<NodeReference>& references,
                  const MachinePool& mp) {
  const StringMap desired = DesiredNodeAnnotations(mp);
  for (const std::shared_ptr<const Node>& node : c->GetSharedAll(NodeKeys(references))) {
    if (node == nullptr) continue;  // "Failed to get Node, skipping setting annotations"
    // annotations.AddAnnotations: whether it would change the Node.
    const bool has_annotation_changes = !node->meta.annotations.Covers(desired);
    const bool has_taint_changes =
        std::any_of(node->spec.taints.begin(), node->spec.taints.end(), IsUninitializedTaint);
    if (!has_annotation_changes && !has_taint_changes) continue;
    Node patched = *node;
    for (const auto& [k, v] : desired) patched.meta.annotations[k] = v;
    std::erase_if(patched.spec.taints, IsUninitializedTaint);
    Status st = c->Patch(*node, &patched);
    if (!st.ok()) return st;
  }
  return Status::Ok();
}

// getNodeRefMap (machinepool_controller_phases.go), docs/reference/capi-core.md §2.1:
// for a duplicate key the later Node in (namespace, name) list order wins.
NodeRefMap GetNodeRefMap(ObjectClient<Node>* c, ProviderIDMatch match) {
  // For exact keys the cache keeps the map this loop builds.
  if (match == ProviderIDMatch::kExact) {
    if (auto kept = c->UniqueIndexMap(kNodeProviderIDField)) return NodeRefMap(std::move(kept));
  }
  NodeRefMap node_refs_map;
  for (std::shared_ptr<const Node>& node : c->List({})) {
    std::optional<std::string_view> key = ProviderIDKey(node->spec.provider_id, match);
    if (!key) continue;  // "No ProviderID detected, skipping"
    node_refs_map.InsertOrAssign(*key, std::move(node));
  }
  return node_refs_map;
}

}  // namespace mpsim
