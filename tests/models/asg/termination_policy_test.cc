// The Default termination policy (providers.md §1.1): AZ balance first, then
// the oldest launch-template version, then the next billing hour, then random.
#include "models/asg/termination_policy.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace mpsim::asg
