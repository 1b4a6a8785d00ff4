#include "models/asg/termination_policy.h"

#include <algorithm>
#include <map>

namespace mpsim::asg {
namespace {

// Time left until the instance's next whole billed hour.
Duration ToNextBillingHour(const Candidate& c, Time now) {
  const Duration used = (now - c.launched_at) % kHour;
  return kHour - used;
}

// Among `pool`, the index the Default policy terminates next.
size_t Pick(const std::vector<Candidate>& pool, Time now, Rng* rng) {
  std::map<std::string, int> per_zone;
  for (const Candidate& c : pool) ++per_zone[c.zone];
  int most = 0;
  for (const auto& [zone, n] : per_zone) most = std::max(most, n);
  std::vector<size_t> best;
  for (size_t i = 0; i < pool.size(); ++i) {
    if (per_zone[pool[i].zone] != most) continue;
    if (best.empty()) {
      best.push_back(i);
      continue;
    }
    const Candidate& b = pool[best.front()];
    const Candidate& c = pool[i];
    const auto key = [now](const Candidate& x) {
      return std::pair(x.launch_template_version, ToNextBillingHour(x, now));
    };
    if (key(c) < key(b))
      best = {i};
    else if (key(c) == key(b))
      best.push_back(i);
  }
  return best[best.size() == 1 ? 0 : rng->Below(best.size())];
}

}  // namespace

std::vector<std::string> ChooseVictims(std::vector<Candidate> candidates, int count, Time now,
                                       Rng* rng) {
  std::vector<std::string> out;
  while (count-- > 0 && !candidates.empty()) {
    const size_t i = Pick(candidates, now, rng);
    out.push_back(candidates[i].id);
    candidates.erase(candidates.begin() + static_cast<std::ptrdiff_t>(i));
  }
  return out;
}

}  // namespace mpsim::asg
