// Per pool, the pod that waited longest from pending to bound: what
// `--explain` tells of the pods, kept as the scheduler binds them (one
// comparison per binding) instead of a row per pod in the timeline.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "api/time.h"

namespace mpsim {

struct PodWait {
  uint64_t pod = 0;        // the pod's creation number (PodName)
  Time pending_since = 0;  // its creation: a replacement pod is new
  Time bound_at = 0;
  std::string node;
  Duration wait() const { return bound_at - pending_since; }
};

// "pod-<id>": the simulated pods have no Deployment, so their creation order names them.
std::string PodName(uint64_t id);

class SlowestPodWaits {
 public:
  // `w`'s pod was bound to a Node of `pool`. It is kept if it waited longer
  // than the pool's slowest so far; of equal waits the first bound stays.
  void Bound(const std::string& pool, const PodWait& w);
  // By pool name; a pool no pod was bound to is absent.
  const std::map<std::string, PodWait>& by_pool() const { return by_pool_; }

 private:
  std::map<std::string, PodWait> by_pool_;
};

}  // namespace mpsim
