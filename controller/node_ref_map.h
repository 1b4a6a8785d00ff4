// The providerID -> Node map of getNodeRefMap, rebuilt by every reconcile of
// a pool: its entries live in one arena, allocated in bulk and freed at once.
#pragma once

#include <initializer_list>
#include <memory>
#include <memory_resource>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "api/objects.h"
#include "api/string_hash.h"

namespace mpsim {

// Nodes of the workload cluster by match key (ProviderIDKey), shared with the
// cache rather than copied. Each key is a view into the providerID of the
// Node its entry holds, so building the map copies no strings. Only ever
// looked up, never iterated in an order that reaches an output, so a hash
// map is safe for determinism.
class NodeRefMap {
 public:
  using Map =
      std::pmr::unordered_map<std::string_view, std::shared_ptr<const Node>, StringHash, StringEq>;
  using value_type = Map::value_type;
  using const_iterator = Map::const_iterator;
  using iterator = Map::iterator;

  NodeRefMap()
      : arena_(std::make_unique<std::pmr::monotonic_buffer_resource>()),
        map_(std::make_unique<Map>(arena_.get())) {}
  NodeRefMap(std::initializer_list<value_type> entries) : NodeRefMap() {
    map_->insert(entries.begin(), entries.end());
  }
  // A copy shares the Nodes (and so the keys' storage), not the arena.
  NodeRefMap(const NodeRefMap& o) : NodeRefMap() { map_->insert(o.begin(), o.end()); }
  NodeRefMap& operator=(const NodeRefMap& o) {
    if (this != &o) *this = NodeRefMap(o);
    return *this;
  }
  NodeRefMap(NodeRefMap&&) noexcept = default;
  NodeRefMap& operator=(NodeRefMap&& o) noexcept {
    map_ = std::move(o.map_);  // the old map goes first, while its arena lives
    arena_ = std::move(o.arena_);
    return *this;
  }

  const_iterator find(std::string_view key) const { return map_->find(key); }
  iterator find(std::string_view key) { return map_->find(key); }
  const_iterator begin() const { return map_->begin(); }
  const_iterator end() const { return map_->end(); }
  iterator end() { return map_->end(); }
  size_t size() const { return map_->size(); }
  bool empty() const { return map_->empty(); }
  void reserve(size_t n) { map_->reserve(n); }
  template <class... A>
  std::pair<iterator, bool> try_emplace(std::string_view key, A&&... a) {
    return map_->try_emplace(key, std::forward<A>(a)...);
  }
  template <class... A>
  std::pair<iterator, bool> emplace(A&&... a) {
    return map_->emplace(std::forward<A>(a)...);
  }
  iterator erase(const_iterator it) { return map_->erase(it); }
  std::shared_ptr<const Node>& operator[](std::string_view key) { return (*map_)[key]; }
  const std::shared_ptr<const Node>& at(std::string_view key) const { return map_->at(key); }

 private:
  // Declared first, destroyed last: the map's entries live in it.
  std::unique_ptr<std::pmr::monotonic_buffer_resource> arena_;
  std::unique_ptr<Map> map_;
};

}  // namespace mpsim
