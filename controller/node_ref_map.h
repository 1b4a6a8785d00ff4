// The providerID -> Node map of getNodeRefMap, rebuilt by every reconcile of
// a pool from the informer cache's Node list.
#pragma once

#include <memory>
#include <vector>

#include "api/objects.h"
#include "util/flat_view_map.h"

namespace mpsim {

// Nodes of the workload cluster by match key (ProviderIDKey), shared with the
// cache rather than copied. Each key is a view into the providerID of the
// Node its entry holds, so building the map copies no strings.
using NodeRefMap = FlatViewMap<std::shared_ptr<const Node>>;

// The Node each nodeRef names among the map's Nodes, or nullptr, in the
// refs' order; of two Nodes with one name the later wins, as when Go fills a
// map by name. Lookups overlap their cache misses (one batch, not N finds).
std::vector<const Node*> NodesOfRefs(const NodeRefMap& nodes,
                                     const std::vector<NodeReference>& refs);

}  // namespace mpsim
