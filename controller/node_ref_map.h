// The providerID -> Node map of getNodeRefMap, rebuilt by every reconcile of
// a pool from the informer cache's Node list.
#pragma once

#include <initializer_list>
#include <memory>
#include <string_view>

#include "api/objects.h"
#include "util/flat_view_map.h"

namespace mpsim {

// Nodes of the workload cluster by match key (ProviderIDKey), shared with the
// cache rather than copied. Each key is a view into the providerID of the
// Node its entry holds, so building the map copies no strings. For exact
// keys the cache keeps the map getNodeRefMap's loop builds
// (ObjectClient::UniqueIndexMap) and a reconcile shares it; a map that is
// written to is copied first.
class NodeRefMap {
 public:
  using Map = FlatViewMap<std::shared_ptr<const Node>>;
  using value_type = Map::value_type;
  using const_iterator = Map::const_iterator;

  NodeRefMap() : map_(std::make_shared<Map>()), owned_(true) {}
  NodeRefMap(std::initializer_list<value_type> entries)
      : map_(std::make_shared<Map>(entries)), owned_(true) {}
  // The cache's map, read only.
  explicit NodeRefMap(std::shared_ptr<const Map> kept) : map_(std::move(kept)) {}

  static uint64_t Hash(std::string_view key) { return Map::Hash(key); }
  const_iterator find(std::string_view key, uint64_t hash) const { return map_->find(key, hash); }
  const_iterator find(std::string_view key) const { return map_->find(key); }
  const_iterator begin() const { return map_->begin(); }
  const_iterator end() const { return map_->end(); }
  size_t size() const { return map_->size(); }
  bool empty() const { return map_->empty(); }
  const std::shared_ptr<const Node>& at(std::string_view key) const { return map_->at(key); }

  void reserve(size_t n) { Own().reserve(n); }
  void InsertOrAssign(std::string_view key, std::shared_ptr<const Node> node, uint64_t hash) {
    Own().InsertOrAssign(key, std::move(node), hash);
  }
  void InsertOrAssign(std::string_view key, std::shared_ptr<const Node> node) {
    Own().InsertOrAssign(key, std::move(node));
  }

 private:
  Map& Own() {
    if (!owned_) {
      map_ = std::make_shared<Map>(*map_);
      owned_ = true;
    }
    return const_cast<Map&>(*map_);
  }
  std::shared_ptr<const Map> map_;
  bool owned_ = false;  // map_ is this map's own, not the cache's
};

// The map's Nodes by name, as reconcileNodeRefs and versionsFromNodeRefs
// build it to look nodeRefs up; of two Nodes with one name the later wins,
// as when Go fills a map. The keys view the names of the Nodes `nodes` holds.
FlatViewMap<const Node*> NodesByName(const NodeRefMap& nodes);

}  // namespace mpsim
