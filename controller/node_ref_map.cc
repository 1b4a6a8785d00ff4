#include "controller/node_ref_map.h"

namespace mpsim {

const NodeRefMap::NameMap& NodeRefMap::ByName() const {
  if (!names_built_) {
    // Only an own map is ever stale: the cache keeps its name map current.
    NameMap& names = const_cast<UniqueIndexMaps<Node>&>(*maps_).by_name;
    names = NameMap();
    names.reserve(maps_->by_value.size());
    for (const auto& [key, node] : maps_->by_value)
      names.InsertOrAssign(node->meta.name, node.get());
    names_built_ = true;
  }
  return maps_->by_name;
}

UniqueIndexMaps<Node>& NodeRefMap::Own() {
  if (!owned_) {
    maps_ = std::make_shared<UniqueIndexMaps<Node>>(*maps_);
    owned_ = true;
  }
  return const_cast<UniqueIndexMaps<Node>&>(*maps_);
}

}  // namespace mpsim
