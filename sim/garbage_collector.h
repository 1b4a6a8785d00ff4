// Kubernetes' garbage collector for one simulated API server
// (docs/reference/garbage-collection.md): a dependency graph of
// ownerReferences, built from the server's changes as the collector's
// informers deliver them (`lag` late, in order), and the work of its
// attemptToDelete and attemptToOrphan queues. Background, foreground and
// orphan propagation and blockOwnerDeletion follow garbagecollector.go.
#pragma once

#include <boost/graph/adjacency_list.hpp>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sim/api_server.h"
#include "sim/distribution.h"
#include "sim/event_loop.h"
#include "sim/gc_store_access.h"
#include "sim/random.h"

namespace mpsim {

class GarbageCollector {
 public:
  // Starts watching every kind of `server`; the objects already there are
  // in the graph at once. `lag` is each change's delay to the collector.
  GarbageCollector(EventLoop* loop, ApiServer* server, const DistSpec& lag, uint64_t seed);
  GarbageCollector(const GarbageCollector&) = delete;
  GarbageCollector& operator=(const GarbageCollector&) = delete;

  // Objects in the graph, virtual owners (named but not yet seen) included.
  size_t GraphSize() const { return boost::num_vertices(graph_); }
  // The deletes and metadata patches the collector sent.
  uint64_t Deletes() const { return deletes_; }
  uint64_t Patches() const { return patches_; }

 private:
  // A graph node: upstream's `node` (graph.go), identity and the flags the
  // workers read.
  struct Item {
    std::string uid;
    std::string kind;
    ObjectKey key;
    size_t store = 0;  // index into stores_; unknown for a virtual node until seen
    bool observed = false;
    bool being_deleted = false;
    bool deleting_dependents = false;
    std::vector<OwnerReference> owners;
  };
  // Owner -> dependent; whether the dependent's reference blocks the owner.
  struct Edge {
    bool block_owner_deletion = false;
  };
  // listS: vertex and edge handles survive removals; out-edges keep their
  // insertion order, so walking dependents is deterministic.
  using Graph =
      boost::adjacency_list<boost::listS, boost::listS, boost::bidirectionalS, Item, Edge>;
  using Vertex = Graph::vertex_descriptor;

  struct Change {
    GcStoreAccess::Change type;
    size_t store;
    std::string kind;
    std::optional<ObjectMeta> old;
    ObjectMeta obj;
  };
  enum class Work { kDelete, kOrphan };

  void OnChange(size_t store, GcStoreAccess::Change type, const ObjectMeta* old,
                const ObjectMeta& obj, std::string_view kind);
  void Deliver(const Change& c);
  // graph_builder.go processGraphChanges, one event.
  void ProcessGraphChange(const Change& c);
  void UpdateNode(Vertex v, const Change& c);
  void AddDependentToOwners(Vertex v, const std::vector<OwnerReference>& refs);
  void ProcessTransitions(const std::optional<ObjectMeta>& old, const ObjectMeta& obj, Vertex v);
  void RemoveNode(Vertex v);
  // garbagecollector.go: the two queues' workers.
  void Enqueue(Work w, Vertex v);
  void RunWorkers();
  void AttemptToDeleteItem(Vertex v);
  void ProcessDeletingDependentsItem(Vertex v);
  void AttemptToOrphan(Vertex v);
  void DeleteObject(Vertex v, DeletionPropagation policy);
  void RemoveFinalizer(Vertex v, const char* finalizer);
  // Owner lookups at the server, as isDangling's Get.
  std::optional<ObjectMeta> Live(const std::string& kind, const ObjectKey& key,
                                 size_t* store) const;
  std::optional<Vertex> Find(const std::string& uid) const;

  EventLoop* loop_;
  std::vector<std::unique_ptr<GcStoreAccess>> stores_;
  DistSpec lag_;
  Rng rng_;
  Time last_delivery_ = 0;  // deliveries keep the server's order
  Graph graph_;
  std::map<std::string, Vertex> uid_to_node_;  // graph_builder.go uidToNode
  std::deque<std::pair<Work, std::string>> queue_;
  std::set<std::pair<Work, std::string>> queued_;
  uint64_t deletes_ = 0;
  uint64_t patches_ = 0;
};

}  // namespace mpsim
