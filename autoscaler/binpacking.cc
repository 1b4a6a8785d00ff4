#include "autoscaler/binpacking.h"

#include <algorithm>

namespace mpsim::autoscaler {

std::vector<Resources> FirstFit(const std::vector<Resources>& pods, std::vector<Room>* rooms) {
  std::vector<Resources> left;
  for (const Resources& pod : pods) {
    auto room =
        std::find_if(rooms->begin(), rooms->end(), [&](const Room& r) { return r.Fits(pod); });
    if (room == rooms->end()) {
      left.push_back(pod);
    } else {
      room->Take(pod);
    }
  }
  return left;
}

Estimate EstimateNodes(std::vector<Resources> pods, const Resources& node_template,
                       int32_t max_nodes) {
  auto share = [&](const Resources& r) {
    auto part = [](int64_t used, int64_t offered) {
      return offered <= 0 ? 0.0 : static_cast<double>(used) / static_cast<double>(offered);
    };
    return part(r.cpu_milli, node_template.cpu_milli) +
           part(r.memory_bytes, node_template.memory_bytes);
  };
  std::stable_sort(pods.begin(), pods.end(),
                   [&](const Resources& a, const Resources& b) { return share(a) > share(b); });
  const Room empty{node_template};
  std::vector<Room> rooms;
  Estimate e;
  for (const Resources& pod : pods) {
    if (!empty.Fits(pod)) continue;  // no new node of this group could take it
    auto room =
        std::find_if(rooms.begin(), rooms.end(), [&](const Room& r) { return r.Fits(pod); });
    if (room == rooms.end()) {
      if (static_cast<int32_t>(rooms.size()) >= max_nodes) continue;
      rooms.push_back(empty);
      room = rooms.end() - 1;
    }
    room->Take(pod);
    ++e.pods;
    e.requested.cpu_milli += pod.cpu_milli;
    e.requested.memory_bytes += pod.memory_bytes;
  }
  e.nodes = static_cast<int32_t>(rooms.size());
  return e;
}

}  // namespace mpsim::autoscaler
