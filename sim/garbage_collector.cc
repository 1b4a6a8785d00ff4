#include "sim/garbage_collector.h"

#include <algorithm>

namespace mpsim {
namespace {

bool Has(const ObjectMeta& m, const char* finalizer) {
  return std::find(m.finalizers.begin(), m.finalizers.end(), finalizer) != m.finalizers.end();
}

// graph_builder.go deletionStartsWithFinalizer: the object is now being
// deleted with `finalizer`, and was not before.
bool DeletionStartsWithFinalizer(const std::optional<ObjectMeta>& old, const ObjectMeta& obj,
                                 const char* finalizer) {
  if (!obj.deletion_timestamp || !Has(obj, finalizer)) return false;
  return !old || !old->deletion_timestamp || !Has(*old, finalizer);
}

// Only these fields reach the graph; other changes (status, spec) are not
// delivered, which spares the collector an event per status write.
bool Relevant(GcStoreAccess::Change type, const ObjectMeta* old, const ObjectMeta& obj) {
  if (type != GcStoreAccess::Change::kModified || old == nullptr) return true;
  return !(old->owner_references == obj.owner_references && old->finalizers == obj.finalizers &&
           old->deletion_timestamp == obj.deletion_timestamp);
}

}  // namespace

GarbageCollector::GarbageCollector(EventLoop* loop, ApiServer* server, const DistSpec& lag,
                                   uint64_t seed)
    : loop_(loop),
      stores_(GcStoreAccesses(server)),
      lag_(lag),
      rng_(StreamFor(seed, "garbage-collector/informer")) {
  for (size_t i = 0; i < stores_.size(); ++i) {
    stores_[i]->ForEach([&](const ObjectMeta& m, std::string_view kind) {
      ProcessGraphChange({GcStoreAccess::Change::kAdded, i, std::string(kind), std::nullopt, m});
    });
    stores_[i]->Watch([this, i](GcStoreAccess::Change t, const ObjectMeta* old,
                                const ObjectMeta& obj,
                                std::string_view kind) { OnChange(i, t, old, obj, kind); });
  }
  RunWorkers();
}

void GarbageCollector::OnChange(size_t store, GcStoreAccess::Change type, const ObjectMeta* old,
                                const ObjectMeta& obj, std::string_view kind) {
  if (!Relevant(type, old, obj)) return;
  Change c{type, store, std::string(kind), old ? std::optional<ObjectMeta>(*old) : std::nullopt,
           obj};
  last_delivery_ = std::max(last_delivery_, loop_->Now() + Sample(lag_, rng_));
  loop_->At(last_delivery_, [this, c = std::move(c)] { Deliver(c); });
}

void GarbageCollector::Deliver(const Change& c) {
  ProcessGraphChange(c);
  RunWorkers();
}

std::optional<GarbageCollector::Vertex> GarbageCollector::Find(const std::string& uid) const {
  auto it = uid_to_node_.find(uid);
  if (it == uid_to_node_.end()) return std::nullopt;
  return it->second;
}

void GarbageCollector::ProcessGraphChange(const Change& c) {
  const std::string uid(c.obj.uid);
  std::optional<Vertex> existing = Find(uid);
  if (c.type == GcStoreAccess::Change::kDeleted) {
    if (existing) RemoveNode(*existing);
    return;
  }
  if (!existing) {
    Item item{.uid = uid,
              .kind = c.kind,
              .key = c.obj.Key(),
              .store = c.store,
              .observed = true,
              .being_deleted = c.obj.deletion_timestamp.has_value(),
              .owners = c.obj.owner_references};
    const Vertex v = boost::add_vertex(std::move(item), graph_);
    uid_to_node_[uid] = v;
    AddDependentToOwners(v, c.obj.owner_references);
    ProcessTransitions(c.old, c.obj, v);
    return;
  }
  UpdateNode(*existing, c);
  ProcessTransitions(c.old, c.obj, *existing);
}

// An observed change of a known node: its references' diff moves the edges;
// an owner is looked at again when one of its blocking references goes or
// stops blocking (addUnblockedOwnersToDeleteQueue), as it may wait for them.
void GarbageCollector::UpdateNode(Vertex v, const Change& c) {
  Item& item = graph_[v];
  item.observed = true;
  item.key = c.obj.Key();
  item.store = c.store;
  item.kind = c.kind;
  item.being_deleted = c.obj.deletion_timestamp.has_value();
  const std::vector<OwnerReference> before = std::move(item.owners);
  item.owners = c.obj.owner_references;
  std::vector<OwnerReference> added;
  for (const OwnerReference& r : c.obj.owner_references) {
    auto old = std::find_if(before.begin(), before.end(),
                            [&](const OwnerReference& b) { return b.uid == r.uid; });
    if (old == before.end()) {
      added.push_back(r);
    } else if (old->block_owner_deletion && !r.block_owner_deletion) {
      if (auto o = Find(std::string(r.uid))) Enqueue(Work::kDelete, *o);
    }
  }
  for (const OwnerReference& b : before) {
    const bool kept = std::any_of(c.obj.owner_references.begin(), c.obj.owner_references.end(),
                                  [&](const OwnerReference& r) { return r.uid == b.uid; });
    if (kept) continue;
    std::optional<Vertex> o = Find(std::string(b.uid));
    if (!o) continue;
    boost::remove_edge(*o, v, graph_);
    if (b.block_owner_deletion) Enqueue(Work::kDelete, *o);
  }
  // A changed blockOwnerDeletion is carried by the edge.
  for (const OwnerReference& r : c.obj.owner_references) {
    std::optional<Vertex> o = Find(std::string(r.uid));
    if (!o) continue;
    auto [e, found] = boost::edge(*o, v, graph_);
    if (found) graph_[e].block_owner_deletion = r.block_owner_deletion;
  }
  AddDependentToOwners(v, added);
}

// An owner not seen yet becomes a virtual node, which the delete worker
// checks at the server (graph_builder.go addDependentToOwners).
void GarbageCollector::AddDependentToOwners(Vertex v, const std::vector<OwnerReference>& refs) {
  for (const OwnerReference& r : refs) {
    const std::string uid(r.uid);
    std::optional<Vertex> owner = Find(uid);
    if (!owner) {
      Item virt{.uid = uid, .kind = r.kind, .key = {graph_[v].key.ns, r.name}};
      owner = boost::add_vertex(std::move(virt), graph_);
      uid_to_node_[uid] = *owner;
      Enqueue(Work::kDelete, *owner);
    }
    boost::add_edge(*owner, v, Edge{r.block_owner_deletion}, graph_);
  }
}

// graph_builder.go processTransitions.
void GarbageCollector::ProcessTransitions(const std::optional<ObjectMeta>& old,
                                          const ObjectMeta& obj, Vertex v) {
  if (DeletionStartsWithFinalizer(old, obj, kFinalizerOrphanDependents)) {
    Enqueue(Work::kOrphan, v);
    return;
  }
  if (DeletionStartsWithFinalizer(old, obj, kFinalizerDeleteDependents)) {
    graph_[v].deleting_dependents = true;
    for (auto [e, end] = boost::out_edges(v, graph_); e != end; ++e) {
      Enqueue(Work::kDelete, boost::target(*e, graph_));
    }
    Enqueue(Work::kDelete, v);
  }
}

// The object is gone: its dependents may now be garbage, and an owner that
// waits for its dependents may now be done.
void GarbageCollector::RemoveNode(Vertex v) {
  std::vector<Vertex> dependents, owners;
  for (auto [e, end] = boost::out_edges(v, graph_); e != end; ++e) {
    dependents.push_back(boost::target(*e, graph_));
  }
  for (auto [e, end] = boost::in_edges(v, graph_); e != end; ++e) {
    owners.push_back(boost::source(*e, graph_));
  }
  uid_to_node_.erase(graph_[v].uid);
  boost::clear_vertex(v, graph_);
  boost::remove_vertex(v, graph_);
  for (Vertex d : dependents) Enqueue(Work::kDelete, d);
  for (Vertex o : owners) {
    if (graph_[o].deleting_dependents) Enqueue(Work::kDelete, o);
  }
}

void GarbageCollector::Enqueue(Work w, Vertex v) {
  std::pair<Work, std::string> key{w, graph_[v].uid};
  if (queued_.insert(key).second) queue_.push_back(std::move(key));
}

// The workers take the queue in order; their writes reach the graph only
// through the informers, after the lag.
void GarbageCollector::RunWorkers() {
  while (!queue_.empty()) {
    auto [work, uid] = std::move(queue_.front());
    queue_.pop_front();
    queued_.erase({work, uid});
    std::optional<Vertex> v = Find(uid);
    if (!v) continue;
    if (work == Work::kDelete) {
      AttemptToDeleteItem(*v);
    } else {
      AttemptToOrphan(*v);
    }
  }
}

std::optional<ObjectMeta> GarbageCollector::Live(const std::string& kind, const ObjectKey& key,
                                                 size_t* store) const {
  for (size_t i = 0; i < stores_.size(); ++i) {
    if (std::optional<ObjectMeta> m = stores_[i]->Find(kind, key)) {
      if (store != nullptr) *store = i;
      return m;
    }
  }
  return std::nullopt;
}

}  // namespace mpsim
