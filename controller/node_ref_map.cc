#include "controller/node_ref_map.h"

namespace mpsim {

FlatViewMap<const Node*> NodesByName(const NodeRefMap& nodes) {
  FlatViewMap<const Node*> out;
  out.reserve(nodes.size());
  for (const auto& [provider_id, node] : nodes) out.InsertOrAssign(node->meta.name, node.get());
  return out;
}

}  // namespace mpsim
