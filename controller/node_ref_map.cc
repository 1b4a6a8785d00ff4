// Lookups of nodeRefs by Node name, for the checks that walk status.nodeRefs.
#include "controller/node_ref_map.h"

#include <string_view>

#include "util/prefetch.h"

namespace mpsim {
namespace {

FlatViewMap<const Node*> ByName(const NodeRefMap& nodes) {
  FlatViewMap<const Node*> out;
  out.reserve(nodes.size());
  const size_t n = nodes.size();
  auto entry = nodes.begin();
  for (size_t i = 0; i < n; ++i, ++entry) {
    if (i + kPrefetchAhead < n) PrefetchRead(&(entry + kPrefetchAhead)->second->meta.name);
    const Node* node = entry->second.get();
    out.InsertOrAssign(node->meta.name, node);
  }
  return out;
}

}  // namespace

std::vector<const Node*> NodesOfRefs(const NodeRefMap& nodes,
                                     const std::vector<NodeReference>& refs) {
  const FlatViewMap<const Node*> by_name = ByName(nodes);
  const size_t n = refs.size();
  std::vector<uint64_t> hashes(n);
  for (size_t i = 0; i < n; ++i) hashes[i] = refs[i].name.Hash();
  std::vector<const Node*> out(n, nullptr);
  for (size_t i = 0; i < n; ++i) {
    if (i + kPrefetchAhead < n) by_name.Prefetch(hashes[i + kPrefetchAhead]);
    auto it = by_name.find(refs[i].name, hashes[i]);
    if (it != by_name.end()) out[i] = it->second;
  }
  return out;
}

}  // namespace mpsim
