// The Default termination policy (docs/reference/providers.md §1.1): AZ balance first, then
// the oldest launch-template version, then the next billing hour, then random.
#include "models/asg/termination_policy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace mpsim::asg {
namespace {

TEST(DefaultTerminationPolicy, BalancesZonesBeforeAnythingElse) {
  Rng rng(1);
  // Zone a has three instances, b one; the new template version is in a.
  std::vector<Candidate> c = {
      {"a1", "a", 2, 0}, {"a2", "a", 2, 0}, {"a3", "a", 2, 0}, {"b1", "b", 1, 0}};
  const std::vector<std::string> v = ChooseVictims(c, 2, kHour / 2, &rng);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].front(), 'a');
  EXPECT_EQ(v[1].front(), 'a');  // a still has 2 > 1 after the first
}

TEST(DefaultTerminationPolicy, OldestLaunchTemplateVersionWithinTheZone) {
  Rng rng(1);
  std::vector<Candidate> c = {{"new", "a", 3, 0}, {"old", "a", 1, 0}, {"mid", "a", 2, 0}};
  EXPECT_EQ(ChooseVictims(c, 3, kHour / 2, &rng), (std::vector<std::string>{"old", "mid", "new"}));
}

TEST(DefaultTerminationPolicy, ThenClosestToTheNextBillingHour) {
  Rng rng(1);
  const Time now = 10 * kHour;
  // Launched 59 min ago: 1 min to its next billed hour; 10 min ago: 50 min.
  std::vector<Candidate> c = {{"fresh", "a", 1, now - 10 * kMinute},
                              {"due", "a", 1, now - 59 * kMinute}};
  EXPECT_EQ(ChooseVictims(c, 1, now, &rng), std::vector<std::string>{"due"});
}

TEST(DefaultTerminationPolicy, TiesAreBrokenByTheStreamAndReproducibly) {
  std::vector<Candidate> c = {{"x", "a", 1, 0}, {"y", "a", 1, 0}, {"z", "a", 1, 0}};
  Rng r1(7), r2(7);
  const auto first = ChooseVictims(c, 3, kHour / 2, &r1);
  EXPECT_EQ(first, ChooseVictims(c, 3, kHour / 2, &r2));
  std::set<std::string> all(first.begin(), first.end());
  EXPECT_EQ(all, (std::set<std::string>{"x", "y", "z"}));
}

// The policy as docs/reference/providers.md §1.1 words it, applied afresh to the whole
// pool before each pick: the yardstick the indexed ChooseVictims must match
// victim for victim, random draws included.
std::vector<std::string> RescanEachPick(std::vector<Candidate> pool, int count, Time now,
                                        Rng* rng) {
  std::vector<std::string> out;
  for (; count > 0 && !pool.empty(); --count) {
    std::map<std::string, int> per_zone;
    for (const Candidate& c : pool) ++per_zone[c.zone];
    int most = 0;
    for (const auto& [zone, n] : per_zone) most = std::max(most, n);
    auto key = [now](const Candidate& c) {
      return std::pair(c.launch_template_version, kHour - (now - c.launched_at) % kHour);
    };
    std::vector<size_t> best;
    for (size_t i = 0; i < pool.size(); ++i) {
      if (per_zone[pool[i].zone] != most) continue;
      if (!best.empty() && key(pool[best.front()]) < key(pool[i])) continue;
      if (!best.empty() && key(pool[i]) < key(pool[best.front()])) best.clear();
      best.push_back(i);
    }
    const size_t pick = best[best.size() == 1 ? 0 : rng->Below(best.size())];
    out.push_back(pool[pick].id);
    pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(pick));
  }
  return out;
}

// Pools with many ties (few zones, versions and launch times) and every
// kind of scale-in, down to none left and asking for more than there are.
TEST(DefaultTerminationPolicy, PicksAsARescanOfThePoolWouldAfterEachVictim) {
  Rng shape(42);
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 1 + static_cast<int>(shape.Below(60));
    const int zones = 1 + static_cast<int>(shape.Below(4));
    std::vector<Candidate> pool;
    for (int i = 0; i < n; ++i) {
      pool.push_back(
          {"i-" + std::to_string(i), std::string(1, static_cast<char>('a' + shape.Below(zones))),
           1 + static_cast<int>(shape.Below(3)), static_cast<Time>(shape.Below(3)) * 20 * kMinute});
    }
    const int count = static_cast<int>(shape.Below(static_cast<uint64_t>(n) + 3));
    const Time now = 2 * kHour + static_cast<Time>(shape.Below(60)) * kMinute;
    Rng a(static_cast<uint64_t>(trial)), b(static_cast<uint64_t>(trial));
    const std::vector<std::string> got = ChooseVictims(pool, count, now, &a);
    EXPECT_EQ(got, RescanEachPick(pool, count, now, &b)) << "trial " << trial;
    EXPECT_EQ(got.size(), static_cast<size_t>(std::min(count, n)));
    EXPECT_EQ(a.Below(1000000), b.Below(1000000)) << "streams drifted apart, trial " << trial;
  }
}

}  // namespace
}  // namespace mpsim::asg
