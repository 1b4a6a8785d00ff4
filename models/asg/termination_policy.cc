#include "models/asg/termination_policy.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>

#include "util/rank_set.h"

namespace mpsim::asg {
namespace {

// What orders two instances of one zone: the older launch-template version
// first, then the nearer billed hour.
using PolicyKey = std::pair<int, Duration>;

// Time left until the instance's next whole billed hour.
Duration ToNextBillingHour(const Candidate& c, Time now) {
  const Duration used = (now - c.launched_at) % kHour;
  return kHour - used;
}

// The candidates left in one zone, as indices into the candidate list,
// grouped by key, lowest key first.
struct Zone {
  size_t left = 0;
  std::map<PolicyKey, RankSet> by_key;
};

std::vector<Zone> GroupByZone(const std::vector<Candidate>& candidates, Time now,
                              std::vector<size_t>* zone_of) {
  std::map<std::string, size_t> ids;
  std::vector<std::map<PolicyKey, std::vector<uint32_t>>> groups;
  for (size_t i = 0; i < candidates.size(); ++i) {
    const Candidate& c = candidates[i];
    auto [it, added] = ids.emplace(c.zone, groups.size());
    if (added) groups.emplace_back();
    zone_of->push_back(it->second);
    groups[it->second][{c.launch_template_version, ToNextBillingHour(c, now)}].push_back(
        static_cast<uint32_t>(i));
  }
  std::vector<Zone> zones(groups.size());
  for (size_t z = 0; z < groups.size(); ++z) {
    for (auto& [key, members] : groups[z]) {
      zones[z].left += members.size();
      zones[z].by_key.emplace(key, RankSet(std::move(members)));
    }
  }
  return zones;
}

// The tied candidates the policy chooses among next: those with the lowest
// key in the zones with the most instances left (AZ balance first).
std::vector<const RankSet*> Tied(const std::vector<Zone>& zones, PolicyKey* key) {
  size_t most = 0;
  for (const Zone& z : zones) most = std::max(most, z.left);
  bool found = false;
  for (const Zone& z : zones) {
    if (z.left != most) continue;
    const PolicyKey low = z.by_key.begin()->first;
    if (!found || low < *key) *key = low;
    found = true;
  }
  std::vector<const RankSet*> tied;
  for (const Zone& z : zones) {
    if (z.left != most) continue;
    auto it = z.by_key.begin();
    if (it->first == *key) tied.push_back(&it->second);
  }
  return tied;
}

}  // namespace

// One pick per victim, as the policy is applied afresh after each. A
// rescan of every candidate per pick made a scale-in of N instances O(N²):
// 18,000 victims of 20,000 took most of a run. The tied set is drawn from
// as the list of ties in the candidates' order, so the stream picks the
// same victim it did.
std::vector<std::string> ChooseVictims(const std::vector<Candidate>& candidates, int count,
                                       Time now, Rng* rng) {
  std::vector<std::string> out;
  std::vector<size_t> zone_of;
  std::vector<Zone> zones = GroupByZone(candidates, now, &zone_of);
  for (size_t left = candidates.size(); count > 0 && left > 0; --count, --left) {
    PolicyKey key;
    const std::vector<const RankSet*> tied = Tied(zones, &key);
    size_t total = 0;
    for (const RankSet* s : tied) total += s->size();
    const size_t k = total == 1 ? 0 : static_cast<size_t>(rng->Below(total));
    const uint32_t i = KthAcross(tied, k);
    Zone& zone = zones[zone_of[i]];
    auto group = zone.by_key.find(key);
    group->second.Remove(i);
    if (group->second.empty()) zone.by_key.erase(group);
    --zone.left;
    out.push_back(candidates[i].id);
  }
  return out;
}

}  // namespace mpsim::asg
