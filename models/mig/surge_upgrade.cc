#include "models/mig/surge_upgrade.h"

#include <algorithm>
#include <cassert>

namespace mpsim::mig {

SurgeStep NextSurgeStep(const SurgeState& s, const UpgradeSettings& u) {
  assert(u.max_surge + u.max_unavailable > 0);
  // An outdated instance that is not RUNNING serves nothing: it goes at once.
  // A RUNNING one goes only while availability stays above size - maxUnavailable.
  const int32_t spare = std::max(0, s.running - (s.size - u.max_unavailable));
  const int32_t remove = (s.old_nodes - s.old_running) + std::min(s.old_running, spare);
  const int32_t target = s.target - remove;
  // Every slot not held by an outdated instance is (or will be) a new one,
  // since the group creates from the new template.
  const int32_t planned_new = target - (s.old_nodes - remove);
  const int32_t add = std::max(0, std::min(s.size - planned_new, s.size + u.max_surge - target));
  return {remove, target + add};
}

}  // namespace mpsim::mig
