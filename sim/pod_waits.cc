#include "sim/pod_waits.h"

namespace mpsim {

std::string PodName(uint64_t id) { return "pod-" + std::to_string(id); }

void SlowestPodWaits::Bound(const std::string& pool, const PodWait& w) {
  auto [it, fresh] = by_pool_.try_emplace(pool, w);
  if (!fresh && w.wait() > it->second.wait()) it->second = w;
}

}  // namespace mpsim
