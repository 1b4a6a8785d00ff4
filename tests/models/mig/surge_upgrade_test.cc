// GKE surge-upgrade arithmetic (docs/reference/providers.md §3.2): maxSurge above the size,
// maxUnavailable below it, their sum upgraded at once, batch by batch.
#include "models/mig/surge_upgrade.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace mpsim::mig {
namespace {

// A whole upgrade where every new VM runs before the next step: the batches
// it takes and the extremes it passes through.
struct Walk {
  int batches = 0;
  int32_t max_instances = 0;
  int32_t min_running = 1 << 30;
  int32_t first_in_flight = 0;  // new VMs started by the first step
};

Walk Upgrade(int32_t size, UpgradeSettings u) {
  Walk w;
  int32_t old_running = size, new_running = 0, target = size;
  for (int guard = 0; guard < 100; ++guard) {
    const SurgeState s{size, target, old_running, old_running, old_running + new_running};
    if (SurgeDone(s)) return w;
    const SurgeStep step = NextSurgeStep(s, u);
    old_running -= step.remove_old;
    const int32_t started = step.target - old_running - new_running;
    if (w.batches == 0) w.first_in_flight = started;
    w.max_instances = std::max(w.max_instances, step.target);
    w.min_running = std::min(w.min_running, old_running + new_running);
    target = step.target;
    new_running += started;  // they all come up before the next step
    ++w.batches;
  }
  ADD_FAILURE() << "the upgrade never finished";
  return w;
}

// GKE's own example: 5 nodes, maxSurge 2, maxUnavailable 1 -> 3 upgraded at
// once and at least 4 available.
TEST(SurgeUpgrade, FiveNodesSurgeTwoUnavailableOneUpgradesThreeAtOnce) {
  const SurgeStep first = NextSurgeStep({5, 5, 5, 5, 5}, {2, 1});
  EXPECT_EQ(first.remove_old, 1);
  EXPECT_EQ(first.target, 7);
  const Walk w = Upgrade(5, {2, 1});
  EXPECT_EQ(w.first_in_flight, 3);
  EXPECT_EQ(w.max_instances, 7);
  EXPECT_EQ(w.min_running, 4);
  EXPECT_EQ(w.batches, 3);  // 3 new, then 2 new, then the last old one goes
}

TEST(SurgeUpgrade, DefaultsReplaceOneNodeAtATimeAndKeepEveryNode) {
  const Walk w = Upgrade(3, UpgradeSettings{});
  EXPECT_EQ(w.first_in_flight, 1);
  EXPECT_EQ(w.max_instances, 4);
  EXPECT_EQ(w.min_running, 3);
  EXPECT_EQ(w.batches, 4);  // three surges, then the last old node goes
}

TEST(SurgeUpgrade, NoSurgeTakesNodesDownFirst) {
  const SurgeStep first = NextSurgeStep({4, 4, 4, 4, 4}, {0, 2});
  EXPECT_EQ(first.remove_old, 2);
  EXPECT_EQ(first.target, 4);  // two replacements after two removals
  const Walk w = Upgrade(4, {0, 2});
  EXPECT_EQ(w.max_instances, 4);
  EXPECT_EQ(w.min_running, 2);
}

TEST(SurgeUpgrade, OutdatedInstancesThatDoNotRunGoAtOnce) {
  // Of 3 outdated, 2 never started (stocked out): both go, the running one stays.
  const SurgeStep step = NextSurgeStep({3, 3, 3, 1, 1}, UpgradeSettings{});
  EXPECT_EQ(step.remove_old, 2);
  EXPECT_EQ(step.target, 4);  // 1 old + 3 new: size + maxSurge, all of it new
}

TEST(SurgeUpgrade, NewVmsStillStartingAreNotStartedAgain) {
  // Target 4 already holds the surge VM, not yet RUNNING: nothing to do.
  const SurgeStep step = NextSurgeStep({3, 4, 3, 3, 3}, UpgradeSettings{});
  EXPECT_EQ(step.remove_old, 0);
  EXPECT_EQ(step.target, 4);
}

}  // namespace
}  // namespace mpsim::mig
