// machinepool_controller_noderef.go: nodeRefs, retired-node deletion and node
// patching, plus getNodeRefMap of machinepool_controller_phases.go.
#include <algorithm>
#include <memory_resource>
#include <optional>
#include <unordered_map>

#include "api/indexes.h"
#include "controller/capi_names.h"
#include "controller/conditions.h"
#include "controller/errors.h"
#include "controller/machinepool_internal.h"
#include "controller/noderef_util.h"
#include "controller/provider_id.h"
#include "controller/versions.h"
#include "util/look_ahead_cursor.h"
#include "util/prefetch.h"
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

// Step 3 of reconcileNodeRefs: counts agree and every nodeRef still names a
// listed Node with the same UID (UID check added by PR #12392, v1.12.0).
// When it does, *versions holds the kubelet versions of those Nodes in the
// refs' order: the deferred updateStatus aggregates exactly these
// (versionsFromNodeRefs looks the same refs up in the same nodeRefMap), so
// it need not build the by-name map and look every Node up a second time.
bool NodeRefsUpToDate(const MachinePool& mp, const std::optional<NodeRefMap>& nodes,
                      std::vector<VersionCount>* versions) {
  const int32_t ready = V1Beta1ReadyReplicas(mp);
  if (mp.status.replicas.value_or(0) != ready ||
      static_cast<int64_t>(mp.status.node_refs.size()) != ready) {
    return false;
  }
  if (!nodes) return false;  // cannot validate UIDs: recompute
  const std::vector<NodeReference>& refs = mp.status.node_refs;
  const std::vector<const Node*> found = NodesOfRefs(*nodes, refs);
  const size_t n = refs.size();
  for (size_t i = 0; i < n; ++i) {
    // The Node's uid field, loaded ahead; a ref made from this Node shares
    // its uid buffer, so the compare settles by address.
    if (i + kPrefetchAhead < n && found[i + kPrefetchAhead] != nullptr) {
      PrefetchRead(&found[i + kPrefetchAhead]->meta.uid);
    }
    if (found[i] == nullptr || found[i]->meta.uid != refs[i].uid) return false;
    AddVersion(found[i]->status.node_info.kubelet_version, versions);  // the uid's line
  }
  return true;
}

// watchClusterNodes: the Node watch exists only once the control plane is
// initialized (D6).
Status WatchClusterNodes(const MachinePoolDeps& d, const Cluster& cluster) {
  if (!IsConditionTrue(cluster.status.conditions, capi::kControlPlaneInitializedCondition)) {
    return Status::Ok();
  }
  return d.client->WatchWorkloadNodes(cluster.meta.Key());
}

// Steps 9-12: store the references, patch the Nodes, and requeue after 30 s
// while not every replica has a ready Node.
Status ApplyNodeReferences(const MachinePoolDeps& d, MachinePoolScope* s, ObjectClient<Node>* nodes,
                           NodeReferencesResult res, Result* r) {
  MachinePool* mp = s->mp;
  const int32_t replicas = mp->status.replicas.value_or(0);
  MachinePoolV1Beta1Status& v = V1Beta1(mp);
  v.ready_replicas = res.ready;
  v.available_replicas = res.available;
  v.unavailable_replicas = replicas - res.available;
  const int references = static_cast<int>(res.references.size());
  mp->status.node_refs = std::move(res.references);
  s->set_node_refs = mp->status.node_refs;
  s->set_node_ref_versions = std::move(res.versions);
  d.client->RecordEvent(mp->meta.Key(), "Normal", "SuccessfulSetNodeRefs",
                        [mp] { return FormatNodeRefs(mp->status.node_refs); });
  Status st = PatchCachedNodes(nodes, res.nodes, *mp);
  if (!st.ok()) return st;
  const Time now = d.clock->Now();
  if (replicas != res.ready || references != res.ready) {
    MarkV1Beta1False(mp, capi::kReplicasReadyV1Beta1, capi::kWaitingForReplicasReadyReason,
                     capi::kSeverityInfo, "", now);
    r->requeue_after = kNodeRefsRequeue;
    return Status::Ok();
  }
  MarkV1Beta1True(mp, capi::kReplicasReadyV1Beta1, now);
  return Status::Ok();
}

}  // namespace

Status ReconcileNodeRefs(const MachinePoolDeps& d, MachinePoolScope* s, Result* r) {
  MachinePool* mp = s->mp;
  Status st = WatchClusterNodes(d, s->cluster);
  if (!st.ok()) return st;
  if (mp->meta.deletion_timestamp) return Status::Ok();
  std::vector<VersionCount> versions;
  if (NodeRefsUpToDate(*mp, s->node_ref_map, &versions)) {
    // No refs: versionsFromNodeRefs says nil, which no aggregate of
    // nothing stands for; the status update works that out itself.
    if (!mp->status.node_refs.empty()) {
      s->set_node_refs = mp->status.node_refs;
      s->set_node_ref_versions = std::move(versions);
    }
    MarkV1Beta1True(mp, capi::kReplicasReadyV1Beta1, d.clock->Now());
    return Status::Ok();  // early exit: no node patching, no deletion
  }
  const std::optional<ProviderIDList>& ids = mp->spec.provider_id_list;
  if ((!ids || ids->empty()) && (!mp->spec.replicas || *mp->spec.replicas != 0)) {
    return Status::Ok();  // "MachinePool doesn't have any ProviderIDs yet"
  }
  ObjectClient<Node>* nodes = nullptr;
  st = d.client->WorkloadNodes(s->cluster.meta.Key(), &nodes);
  if (!st.ok()) return st;
  st = DeleteRetiredNodes(nodes, mp->status.node_refs, ids, d.opts.provider_id_match);
  if (!st.ok()) return st;
  if (!s->node_ref_map) return Status::Internal("failed to get Node references");

  NodeReferencesResult res;
  st = GetNodeReferences(ids ? ids->vec() : std::vector<SharedString>{},
                         mp->spec.template_.spec.min_ready_seconds.value_or(0), *s->node_ref_map,
                         d.clock->Now(), d.opts.provider_id_match, &res, mp->status.node_refs);
  if (IsNoAvailableNodes(st)) return Status::Ok();  // a Node event will trigger us (D6)
  if (!st.ok()) {
    d.client->RecordEvent(mp->meta.Key(), "Warning", "FailedSetNodeRef", st.message());
    return Wrap(st, "failed to get node references");
  }
  return ApplyNodeReferences(d, s, nodes, std::move(res), r);
}

namespace {

struct HashedKey {
  std::optional<std::string_view> key;
  uint64_t hash = 0;
};

// The match key of each providerID and its hash, loading each string's
// buffer kPrefetchAhead steps before it is hashed.
template <class IdAt>
std::vector<HashedKey> HashKeys(size_t n, IdAt id_at, ProviderIDMatch match) {
  std::vector<HashedKey> out(n);
  for (size_t i = 0; i < n; ++i) {
    if (i + kPrefetchAhead < n) id_at(i + kPrefetchAhead).Prefetch();
    const SharedString& id = id_at(i);
    std::optional<std::string_view> key = ProviderIDKey(id, match);
    if (!key) continue;
    // A key that is the whole providerID has the hash its buffer keeps.
    const bool whole = key->size() == id.size();
    out[i] = {key, whole ? id.Hash() : NodeRefMap::Hash(*key)};
  }
  return out;
}

}  // namespace

NodeRefMap GetNodeRefMap(ObjectClient<Node>* nodes, ProviderIDMatch match) {
  // For exact keys the cache keeps what the loop below builds.
  if (match == ProviderIDMatch::kExact) {
    if (auto kept = nodes->UniqueIndexMap(kNodeProviderIDField)) return NodeRefMap(std::move(kept));
  }
  std::vector<std::shared_ptr<const Node>> all = nodes->List({});
  const size_t n = all.size();
  std::vector<HashedKey> keys = HashKeys(
      n,
      [&](size_t i) -> const SharedString& {
        if (i + kPrefetchAhead < n) PrefetchRead(&all[i + kPrefetchAhead]->spec.provider_id);
        return all[i]->spec.provider_id;
      },
      match);
  NodeRefMap out;
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    if (i + kPrefetchAhead < n) out.Prefetch(keys[i + kPrefetchAhead].hash);
    // A later Node with the same key wins, as in Go's map assignment.
    if (keys[i].key) out.InsertOrAssign(*keys[i].key, std::move(all[i]), keys[i].hash);
  }
  return out;
}

namespace {

// The Node each providerID names in the map, in list order: the map's entry,
// and the Node itself, read while the find has the entry's line at hand so
// that the caller's loads of Nodes wait on no entry.
struct FoundNode {
  const std::shared_ptr<const Node>* entry = nullptr;  // nullptr: no such Node
  const Node* node = nullptr;
};

std::vector<FoundNode> FindNodes(const std::vector<SharedString>& ids, const NodeRefMap& nodes,
                                 ProviderIDMatch match) {
  const size_t n = ids.size();
  std::vector<HashedKey> keys = HashKeys(
      n, [&](size_t i) -> const SharedString& { return ids[i]; }, match);
  std::vector<FoundNode> found(n);
  for (size_t i = 0; i < n; ++i) {
    if (i + kPrefetchAhead < n) nodes.Prefetch(keys[i + kPrefetchAhead].hash);
    if (!keys[i].key) continue;
    auto it = nodes.find(*keys[i].key, keys[i].hash);
    if (it != nodes.end()) found[i] = {&it->second, it->second.get()};
  }
  return found;
}

// The name of each new reference, taken from the previous list's entry for
// the same Node where there is one. The lists are usually in the same order
// with Nodes added or dropped here and there, so a cursor that looks a few
// entries ahead finds almost all of them; a miss costs a lookup of the name
// (SharedString::Pinned keeps one buffer per text while a run lasts).
class PreviousNames {
 public:
  explicit PreviousNames(const std::vector<NodeReference>& prev) : prev_(prev) {}

  SharedString For(const Node& node) {
    // A uid buffer is one Node's, and a Node never changes its name.
    const void* uid = node.meta.uid.identity();
    auto same_node = [uid](const NodeReference& r) { return r.uid.identity() == uid; };
    const size_t k = uid == nullptr ? kNone : cursor_.Find(kLookAhead, same_node);
    if (k != kNone) return prev_[k].name;
    // Pinned: one buffer per name for the run, whatever the list order.
    return SharedString::Pinned(node.meta.name);
  }

 private:
  static constexpr size_t kLookAhead = 4;
  static constexpr size_t kNone = LookAheadCursor<NodeReference>::kNone;
  const std::vector<NodeReference>& prev_;
  LookAheadCursor<NodeReference> cursor_{prev_};
};

}  // namespace

Status GetNodeReferences(const std::vector<SharedString>& provider_ids, int32_t min_ready_seconds,
                         const NodeRefMap& nodes, Time now, ProviderIDMatch match,
                         NodeReferencesResult* out, const std::vector<NodeReference>& previous) {
  PreviousNames names(previous);
  *out = {};
  out->references.reserve(provider_ids.size());
  out->nodes.reserve(provider_ids.size());
  const std::vector<FoundNode> found = FindNodes(provider_ids, nodes, match);
  const size_t n = found.size();
  for (size_t i = 0; i < n; ++i) {
    // Two steps of loading ahead: the Node's lines and the map entry the
    // reference is counted through, then the Node's conditions.
    if (i + 2 * kPrefetchAhead < n && found[i + 2 * kPrefetchAhead].node != nullptr) {
      const FoundNode& later = found[i + 2 * kPrefetchAhead];
      PrefetchRead(&later.node->meta.uid);
      PrefetchRead(&later.node->status.conditions);
      PrefetchRead(later.entry);
    }
    if (i + kPrefetchAhead < n && found[i + kPrefetchAhead].node != nullptr) {
      const Node& later = *found[i + kPrefetchAhead].node;
      PrefetchRead(later.status.conditions.data());
      later.meta.uid.PrefetchForCopy();  // the reference copies it
    }
    if (found[i].node == nullptr) continue;
    const Node& node = *found[i].node;
    // IsNodeReady and IsNodeAvailable, sharing one search for the condition.
    const Condition* ready = GetReadyCondition(&node.status);
    if (ready != nullptr && BytesEqual(ready->status, "True")) {
      ++out->ready;
      if (ReadyLongEnough(*ready, min_ready_seconds, now)) ++out->available;
    }
    out->references.emplace_back(NodeReference{.name = names.For(node), .uid = node.meta.uid});
    out->nodes.push_back(*found[i].entry);
    AddVersion(node.status.node_info.kubelet_version, &out->versions);  // on the uid's line too
  }
  if (out->references.empty() && !provider_ids.empty()) {
    *out = {};
    return Status::NotFound(kErrNoAvailableNodes);
  }
  return Status::Ok();
}

bool IsNoAvailableNodes(const Status& s) {
  return s.IsNotFound() && s.message() == kErrNoAvailableNodes;
}

// Annotates each referenced Node with its owner and drops the uninitialized
// taint; one Patch per Node only when something changed (PR #8462).
namespace {

bool IsUninitializedTaint(const Taint& t) {
  return t.key == capi::kNodeUninitializedTaintKey && t.effect == capi::kNoSchedule;
}

// patchNodes: a Node changes when an annotation differs or the taint is there.
// Both maps are sorted by key: one walk over the Node's annotations finds
// every desired key, where a find() per key would restart at the root.
bool NodeNeedsPatch(const Node& node, const StringMap& desired) {
  auto it = node.meta.annotations.begin();
  const auto end = node.meta.annotations.end();
  for (const auto& [k, v] : desired) {
    // Once patched, a Node's next keys are usually exactly the desired ones:
    // an equality test settles those without ordering the strings.
    if (it == end || it->first != k) {
      int c = -1;
      while (it != end && (c = std::string_view(it->first).compare(k)) < 0) ++it;
      if (it == end || c != 0) return true;
    }
    // Values written by this pass are interned: equal ones share a buffer.
    if (it->second != v) return true;
    ++it;
  }
  return std::any_of(node.spec.taints.begin(), node.spec.taints.end(), IsUninitializedTaint);
}

}  // namespace

Status PatchNodes(ObjectClient<Node>* nodes, const std::vector<NodeReference>& refs,
                  const MachinePool& mp) {
  std::vector<std::shared_ptr<const Node>> cached;
  for (const NodeReference& ref : refs) {
    std::shared_ptr<const Node> node = nodes->GetShared({"", ref.name});
    if (node != nullptr) cached.push_back(std::move(node));  // logged and skipped upstream
  }
  return PatchCachedNodes(nodes, cached, mp);
}

Status PatchCachedNodes(ObjectClient<Node>* nodes,
                        const std::vector<std::shared_ptr<const Node>>& cached,
                        const MachinePool& mp) {
  // Interned once: the keys this pass writes onto Nodes are these buffers, so
  // later passes' NodeNeedsPatch compares them by address.
  static const SharedString kClusterName = SharedString::Immortal(capi::kClusterNameAnnotation);
  static const SharedString kClusterNamespace =
      SharedString::Immortal(capi::kClusterNamespaceAnnotation);
  static const SharedString kOwnerKind = SharedString::Immortal(capi::kOwnerKindAnnotation);
  static const SharedString kOwnerName = SharedString::Immortal(capi::kOwnerNameAnnotation);
  const StringMap desired = {{kClusterName, SharedString::Interned(mp.spec.cluster_name)},
                             {kClusterNamespace, SharedString::Interned(mp.meta.ns)},
                             {kOwnerKind, SharedString::Interned("MachinePool")},
                             {kOwnerName, SharedString::Interned(mp.meta.name)}};
  const size_t n = cached.size();
  for (size_t i = 0; i < n; ++i) {
    // Two steps of loading ahead: the Node's two lines (annotations, then
    // the taints before them), then its annotations' buffer.
    if (i + 2 * kPrefetchAhead < n) {
      const Node& later = *cached[i + 2 * kPrefetchAhead];
      PrefetchRead(&later.meta.annotations);
      PrefetchRead(&later.spec.taints);
    }
    if (i + kPrefetchAhead < n) {
      const StringMap& later = cached[i + kPrefetchAhead]->meta.annotations;
      if (!later.empty()) PrefetchRead(&*later.begin());
    }
    const std::shared_ptr<const Node>& current = cached[i];
    // Copy only the Nodes that need a patch (the patch helper sends nothing
    // for the others either).
    if (!NodeNeedsPatch(*current, desired)) continue;
    Node node = *current;
    for (const auto& [k, v] : desired) node.meta.annotations[k] = v;
    std::erase_if(node.spec.taints, IsUninitializedTaint);
    Status st = nodes->Patch(*current, &node);
    if (!st.ok()) return st;
  }
  return Status::Ok();
}

namespace {

// The usual pass: each nodeRef's Node still has a listed providerID, in list
// order (the nodeRefs were made walking the list). Then nothing is retired,
// and a cursor over the list shows it with equality compares, where hashing
// costs more. A run keeps one buffer per providerID text, so the Node's
// providerID is usually the very buffer of an entry a few places ahead
// (entries whose instance has no Node yet lie between): matched by address,
// neither string is read, and at 100,000 Nodes each read is a cache miss.
class ListedInOrder {
 public:
  ListedInOrder(const std::optional<ProviderIDList>& ids, ProviderIDMatch match)
      : listed_(ids ? ids->vec() : kNoList), match_(match) {}

  // The providerID of the next nodeRef's Node.
  void Next(const SharedString& id) {
    if (!in_order_) return;
    const void* buffer = id.identity();
    auto same_buffer = [buffer](const SharedString& e) { return e.identity() == buffer; };
    if (buffer != nullptr && listed_.Find(kSameBufferWindow, same_buffer) != kNone) return;
    const std::optional<std::string_view> key = ProviderIDKey(id, match_);
    if (!key) return;  // a Node without a key is never retired
    while (const SharedString* listed = listed_.Next()) {
      if (listed->identity() == buffer) return;  // one buffer, one text
      std::optional<std::string_view> k = ProviderIDKey(*listed, match_);
      if (k && StringEq{}(*k, *key)) return;
    }
    in_order_ = false;
  }
  // Every Node so far was found in the list: none of them is retired.
  bool in_order() const { return in_order_; }

 private:
  // Entries compared by address alone before the Node's text is read: the
  // list entries are 8 bytes each, side by side.
  static constexpr size_t kSameBufferWindow = 64;
  static constexpr size_t kNone = LookAheadCursor<SharedString>::kNone;
  static inline const std::vector<SharedString> kNoList;  // no list: nothing is listed
  LookAheadCursor<SharedString> listed_;
  ProviderIDMatch match_;
  bool in_order_ = true;
};

}  // namespace

// Deletes Nodes that were referenced but whose providerID left the list.
// Nodes are deleted in match-key order (Go iterates its map randomly); the
// first failure stops the pass.
Status DeleteRetiredNodes(ObjectClient<Node>* nodes, const std::vector<NodeReference>& node_refs,
                          const std::optional<ProviderIDList>& provider_ids,
                          ProviderIDMatch match) {
  // Keys are views into the cached Nodes, which `held` keeps alive. One Get
  // per nodeRef, made as one batch so the cache can overlap them.
  std::vector<ObjectKeyRef> names;
  names.reserve(node_refs.size());
  for (size_t i = 0; i < node_refs.size(); ++i) {
    if (i + kPrefetchAhead < node_refs.size()) node_refs[i + kPrefetchAhead].name.Prefetch();
    const SharedString& name = node_refs[i].name;
    names.push_back({"", name, name.Hash()});
  }
  std::vector<std::shared_ptr<const Node>> held = nodes->GetSharedAll(names);
  ListedInOrder listed(provider_ids, match);
  for (size_t i = 0; i < held.size(); ++i) {
    if (i + kPrefetchAhead < held.size() && held[i + kPrefetchAhead] != nullptr) {
      PrefetchRead(&held[i + kPrefetchAhead]->spec.provider_id);  // the Node's spec line
    }
    if (held[i] != nullptr) listed.Next(held[i]->spec.provider_id);  // nil: logged, skipped
  }
  if (listed.in_order()) return Status::Ok();
  std::vector<std::pair<std::string_view, const Node*>> ref_keys;
  ref_keys.reserve(held.size());
  for (const std::shared_ptr<const Node>& node : held) {
    if (node == nullptr) continue;
    std::optional<std::string_view> key = ProviderIDKey(node->spec.provider_id, match);
    if (key) ref_keys.emplace_back(*key, node.get());
  }
  // One arena for the map's entries, released at once.
  std::pmr::monotonic_buffer_resource arena;
  std::pmr::unordered_map<std::string_view, const Node*, StringHash, StringEq> retired(&arena);
  retired.reserve(ref_keys.size());
  for (const auto& [key, node] : ref_keys) retired[key] = node;
  if (provider_ids) {
    for (const std::string& id : *provider_ids) {
      std::optional<std::string_view> key = ProviderIDKey(id, match);
      if (key) retired.erase(*key);
    }
  }
  // Go deletes in map order (random); a sorted order keeps runs reproducible.
  std::vector<std::pair<std::string_view, ObjectKey>> victims;
  for (const auto& [key, node] : retired) victims.emplace_back(key, node->meta.Key());
  std::sort(victims.begin(), victims.end());
  for (const auto& [key, node] : victims) {
    Status st = nodes->Delete(node);
    if (!st.ok() && !st.IsNotFound()) return Wrap(st, "failed to delete Node");
  }
  return Status::Ok();
}

}  // namespace mpsim
