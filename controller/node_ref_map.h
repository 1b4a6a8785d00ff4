// The providerID -> Node map of getNodeRefMap, read by every reconcile of a
// pool, and the name -> Node map that reconcileNodeRefs and
// versionsFromNodeRefs build from it.
#pragma once

#include <initializer_list>
#include <memory>
#include <string_view>

#include "api/client.h"
#include "api/objects.h"
#include "controller/options.h"
#include "controller/provider_id.h"
#include "util/batched_find.h"
#include "util/flat_view_map.h"

namespace mpsim {

// Nodes of the workload cluster by match key (ProviderIDKey), shared with the
// cache rather than copied. Each key is a view into the providerID of the
// Node its entry holds, so building the map copies no strings. For exact
// keys the cache keeps both maps (ObjectClient::UniqueIndexMap) and a
// reconcile shares them; a map that is written to is copied first, and its
// name map is built at its first read.
class NodeRefMap {
 public:
  using Map = FlatViewMap<std::shared_ptr<const Node>>;
  using NameMap = FlatViewMap<const Node*>;
  using value_type = Map::value_type;
  using const_iterator = Map::const_iterator;

  NodeRefMap() : maps_(std::make_shared<UniqueIndexMaps<Node>>()), owned_(true) {}
  NodeRefMap(std::initializer_list<value_type> entries) : NodeRefMap() {
    for (const value_type& e : entries) InsertOrAssign(e.first, e.second);
  }
  // The cache's maps, read only.
  explicit NodeRefMap(std::shared_ptr<const UniqueIndexMaps<Node>> kept)
      : maps_(std::move(kept)), names_built_(true) {}
  // A copy shares the maps until either side writes.
  NodeRefMap(const NodeRefMap& o) : maps_(o.maps_), names_built_(o.names_built_) {}
  NodeRefMap& operator=(const NodeRefMap& o) {
    maps_ = o.maps_;
    owned_ = false;
    names_built_ = o.names_built_;
    return *this;
  }
  NodeRefMap(NodeRefMap&&) = default;
  NodeRefMap& operator=(NodeRefMap&&) = default;

  const_iterator find(std::string_view key) const { return maps_->by_value.find(key); }
  const_iterator begin() const { return maps_->by_value.begin(); }
  const_iterator end() const { return maps_->by_value.end(); }
  size_t size() const { return maps_->by_value.size(); }
  bool empty() const { return maps_->by_value.empty(); }
  const std::shared_ptr<const Node>& at(std::string_view key) const {
    return maps_->by_value.at(key);
  }
  void InsertOrAssign(std::string_view key, std::shared_ptr<const Node> node) {
    InsertOrAssign(key, std::move(node), Map::Hash(key));
  }
  void reserve(size_t n) { Own().by_value.reserve(n); }
  // `hash` is Map::Hash(key).
  void InsertOrAssign(std::string_view key, std::shared_ptr<const Node> node, uint64_t hash) {
    Own().by_value.InsertOrAssign(key, std::move(node), hash);
    names_built_ = false;
  }

  // The map's Nodes by name; of two Nodes with one name the later wins.
  const NameMap& ByName() const;

  // nodeRefsMap[providerID] of each listed providerID, in list order
  // (nullptr: no Node has it, or it is no key), as one batched read.
  auto FindEach(const ProviderIDList& ids, ProviderIDMatch match) const {
    auto key = [match](const SharedString& id) { return HashedProviderIDKey(id, match); };
    return BatchedFind<std::shared_ptr<const Node>, ProviderIDList, decltype(key)>(maps_->by_value,
                                                                                   ids, key);
  }

 private:
  UniqueIndexMaps<Node>& Own();
  std::shared_ptr<const UniqueIndexMaps<Node>> maps_;
  bool owned_ = false;                // maps_ is this map's own, not the cache's
  mutable bool names_built_ = false;  // maps_->by_name matches by_value
};

// The map's Nodes by name, as reconcileNodeRefs and versionsFromNodeRefs
// build it to look nodeRefs up (the `nodeNameMap` loop); of two Nodes with
// one name the later wins, as when Go fills a map.
inline const NodeRefMap::NameMap& NodesByName(const NodeRefMap& nodes) { return nodes.ByName(); }

// nodeNameMap[nodeRef.Name] of each nodeRef, in order (nullptr: none), as
// one batched read.
inline auto FindEachByName(const NodeRefMap::NameMap& node_name_map,
                           const std::vector<NodeReference>& node_refs) {
  auto key = [](const NodeReference& ref) { return WholeKey(ref.name); };
  return BatchedFind<const Node*, std::vector<NodeReference>, decltype(key)>(node_name_map,
                                                                             node_refs, key);
}

}  // namespace mpsim
