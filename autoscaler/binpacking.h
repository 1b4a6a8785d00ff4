// The autoscaler's estimates of where pending pods would run: on the room
// of nodes that exist or are coming, and on new nodes of a group's template
// (the binpacking estimator, docs/reference/autoscaler.md §3).
#pragma once

#include <cstdint>
#include <vector>

#include "sim/pod_scheduler.h"

namespace mpsim::autoscaler {

// The free room of one node in a simulation.
struct Room {
  Resources free;
  bool Fits(const Resources& r) const {
    return r.cpu_milli <= free.cpu_milli && r.memory_bytes <= free.memory_bytes &&
           r.pods <= free.pods;
  }
  void Take(const Resources& r) {
    free.cpu_milli -= r.cpu_milli;
    free.memory_bytes -= r.memory_bytes;
    free.pods -= r.pods;
  }
};

// Places each of `pods`, in order, on the first room with space for it, and
// returns those that fit nowhere, in order.
std::vector<Resources> FirstFit(const std::vector<Resources>& pods, std::vector<Room>* rooms);

struct Estimate {
  int32_t nodes = 0;
  int32_t pods = 0;
  Resources requested;  // of the pods that fit
};

// How many new nodes like `node_template`, at most `max_nodes`, `pods` need:
// the pods sorted by their share of a node, largest first, each put on the
// first new node with room, a node added when none has room.
Estimate EstimateNodes(std::vector<Resources> pods, const Resources& node_template,
                       int32_t max_nodes);

}  // namespace mpsim::autoscaler
