// The record of each pool's slowest pod: a longer wait replaces it, an equal
// one does not, pools are kept apart.
#include "sim/pod_waits.h"

#include <gtest/gtest.h>

namespace mpsim {
namespace {

TEST(SlowestPodWaits, KeepsTheLongestWaitPerPoolAndTheFirstOfEqualOnes) {
  SlowestPodWaits w;
  w.Bound("mp-0", {1, 0, 5 * kSecond, "a"});
  w.Bound("mp-0", {2, kSecond, 6 * kSecond, "b"});  // also 5 s: the first stays
  w.Bound("mp-1", {3, 0, kSecond, "c"});
  EXPECT_EQ(w.by_pool().at("mp-0").pod, 1u);
  w.Bound("mp-0", {4, kSecond, 7 * kSecond, "d"});  // 6 s
  EXPECT_EQ(w.by_pool().at("mp-0").pod, 4u);
  EXPECT_EQ(w.by_pool().at("mp-0").wait(), 6 * kSecond);
  EXPECT_EQ(w.by_pool().at("mp-1").node, "c");
  EXPECT_EQ(w.by_pool().size(), 2u);
  EXPECT_EQ(PodName(42), "pod-42");
}

}  // namespace
}  // namespace mpsim
