// The collector's two workers (garbagecollector.go attemptToDeleteItem,
// processDeletingDependentsItem, attemptToOrphanWorker); the graph they read
// is kept by garbage_collector.cc.
#include <algorithm>

#include "sim/garbage_collector.h"

namespace mpsim {
namespace {

bool HasFinalizerNamed(const ObjectMeta& m, const char* finalizer) {
  return std::find(m.finalizers.begin(), m.finalizers.end(), finalizer) != m.finalizers.end();
}

bool InUids(const std::vector<SharedString>& uids, const SharedString& uid) {
  return std::find(uids.begin(), uids.end(), uid) != uids.end();
}

}  // namespace

void GarbageCollector::AttemptToDeleteItem(Vertex v) {
  const Item& item = graph_[v];
  // Being deleted is a one-way trip: wait for the final deletion.
  if (item.being_deleted && !item.deleting_dependents) return;
  size_t store = 0;
  std::optional<ObjectMeta> latest = Live(item.kind, item.key, &store);
  if (!latest || std::string(latest->uid) != item.uid) {
    RemoveNode(v);  // the virtual delete event: a virtual owner that does not exist
    return;
  }
  graph_[v].store = store;
  if (item.deleting_dependents) {
    ProcessDeletingDependentsItem(v);
    return;
  }
  if (latest->owner_references.empty()) return;
  // classifyReferences
  std::vector<SharedString> dangling, waiting;
  bool solid = false;
  for (const OwnerReference& r : latest->owner_references) {
    std::optional<ObjectMeta> owner = Live(r.kind, {item.key.ns, r.name}, nullptr);
    if (!owner || owner->uid != r.uid) {
      dangling.push_back(r.uid);
    } else if (owner->deletion_timestamp && HasFinalizerNamed(*owner, kFinalizerDeleteDependents)) {
      waiting.push_back(r.uid);
    } else {
      solid = true;
    }
  }
  if (solid) {
    if (dangling.empty() && waiting.empty()) return;
    // The waiting references go too, else their owners keep foregroundDeletion forever.
    dangling.insert(dangling.end(), waiting.begin(), waiting.end());
    ++patches_;
    stores_[store]->PatchMeta(item.key, latest->uid, [&](ObjectMeta* m) {
      std::erase_if(m->owner_references,
                    [&](const OwnerReference& r) { return InUids(dangling, r.uid); });
    });
    return;
  }
  if (!waiting.empty() && boost::out_degree(v, graph_) != 0) {
    for (auto [e, end] = boost::out_edges(v, graph_); e != end; ++e) {
      if (!graph_[boost::target(*e, graph_)].deleting_dependents) continue;
      // A possible cycle: this item's references stop blocking before it goes foreground.
      ++patches_;
      stores_[store]->PatchMeta(item.key, latest->uid, [](ObjectMeta* m) {
        for (OwnerReference& r : m->owner_references) r.block_owner_deletion = false;
      });
      break;
    }
    DeleteObject(v, DeletionPropagation::kForeground);
    return;
  }
  DeletionPropagation policy = DeletionPropagation::kBackground;
  if (HasFinalizerNamed(*latest, kFinalizerOrphanDependents)) {
    policy = DeletionPropagation::kOrphan;
  } else if (HasFinalizerNamed(*latest, kFinalizerDeleteDependents)) {
    policy = DeletionPropagation::kForeground;
  }
  DeleteObject(v, policy);
}

// An owner deleted in the foreground goes once no dependent blocks it.
void GarbageCollector::ProcessDeletingDependentsItem(Vertex v) {
  bool blocked = false;
  for (auto [e, end] = boost::out_edges(v, graph_); e != end; ++e) {
    if (!graph_[*e].block_owner_deletion) continue;
    blocked = true;
    const Vertex dep = boost::target(*e, graph_);
    if (!graph_[dep].deleting_dependents) Enqueue(Work::kDelete, dep);
  }
  if (!blocked) RemoveFinalizer(v, kFinalizerDeleteDependents);
}

// Dependents lose their references to the owner, then the owner its orphan finalizer.
void GarbageCollector::AttemptToOrphan(Vertex v) {
  const SharedString owner_uid = SharedString(std::string_view(graph_[v].uid));
  for (auto [e, end] = boost::out_edges(v, graph_); e != end; ++e) {
    const Item& dep = graph_[boost::target(*e, graph_)];
    if (!dep.observed) continue;
    ++patches_;
    stores_[dep.store]->PatchMeta(
        dep.key, SharedString(std::string_view(dep.uid)), [&](ObjectMeta* m) {
          std::erase_if(m->owner_references,
                        [&](const OwnerReference& r) { return r.uid == owner_uid; });
        });
  }
  RemoveFinalizer(v, kFinalizerOrphanDependents);
}

void GarbageCollector::DeleteObject(Vertex v, DeletionPropagation policy) {
  const Item& item = graph_[v];
  ++deletes_;
  stores_[item.store]->Delete(item.key, policy);
}

void GarbageCollector::RemoveFinalizer(Vertex v, const char* finalizer) {
  const Item& item = graph_[v];
  ++patches_;
  stores_[item.store]->PatchMeta(
      item.key, SharedString(std::string_view(item.uid)),
      [&](ObjectMeta* m) { std::erase(m->finalizers, std::string(finalizer)); });
}

}  // namespace mpsim
