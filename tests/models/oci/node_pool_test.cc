// The simulated OKE node pool's cycling (docs/reference/oci-scaleway.md
// §2.4): with OKE's defaults maximumSurge 1 and maximumUnavailable 0, at
// most size + 1 nodes and never fewer than size ACTIVE ones, until every
// node runs the new version.
#include "models/oci/node_pool.h"

#include <gtest/gtest.h>

#include "tests/models/oci/oci_fixture.h"

namespace mpsim::oci {
namespace {

TEST(OkeCycleStep, SurgeOneUnavailableZeroLaunchesOneThenDrainsOne) {
  NodeCycling c;  // OKE's defaults
  // 3 old ACTIVE nodes: one new node, none drained yet.
  CycleStep s = NextCycleStep(
      {.size = 3, .live = 3, .fresh = 0, .available = 3, .stale_not_active = 0, .stale_active = 3},
      c);
  EXPECT_EQ(s.launch, 1);
  EXPECT_EQ(s.drain_active, 0);
  // The new node is ACTIVE: one old node drains, nothing more launches.
  s = NextCycleStep(
      {.size = 3, .live = 4, .fresh = 1, .available = 4, .stale_not_active = 0, .stale_active = 3},
      c);
  EXPECT_EQ(s.launch, 0);
  EXPECT_EQ(s.drain_active, 1);
}

TEST(OkeCycleStep, UnavailableOneDrainsWithoutWaitingForSurge) {
  NodeCycling c;
  c.maximum_surge = 0;
  c.maximum_unavailable = 1;
  const CycleStep s = NextCycleStep(
      {.size = 3, .live = 3, .fresh = 0, .available = 3, .stale_not_active = 0, .stale_active = 3},
      c);
  EXPECT_EQ(s.launch, 0);
  EXPECT_EQ(s.drain_active, 1);
}

// An outdated node that is not ACTIVE serves nothing: it goes at once, and
// its place counts for the surge: 1 node left, so 2 new ones keep the pool
// at size + maximumSurge = 3.
TEST(OkeCycleStep, OutdatedNodesNotActiveGoAtOnce) {
  NodeCycling c;
  const CycleStep s = NextCycleStep(
      {.size = 2, .live = 2, .fresh = 0, .available = 1, .stale_not_active = 1, .stale_active = 1},
      c);
  EXPECT_EQ(s.drain_not_active, 1);
  EXPECT_EQ(s.launch, 2);
  EXPECT_EQ(s.drain_active, 0) << "1 ACTIVE node is below size - maximumUnavailable = 2";
}

class OkeCyclingTest : public OkeTest {};

TEST_F(OkeCyclingTest, CyclingReplacesEveryNodeWithinTheSurgeBounds) {
  NodeCycling c = Cycling();
  c.enabled = true;
  StartActive(3, c);
  SetMachinePool([](MachinePool* mp) { mp->spec.template_.spec.version = "v1.31.0"; });
  Pass();
  ASSERT_EQ(pool_->state(), NodePoolState::kUpdating);
  int32_t most = 0, fewest_active = 3;
  for (int i = 0; i < 200 && pool_->state() != NodePoolState::kActive; ++i) {
    RunTo(loop_.Now() + 5 * kSecond);
    most = std::max(most, pool_->nodes().live());
    fewest_active = std::min(fewest_active, pool_->nodes().up());
  }
  ASSERT_EQ(pool_->state(), NodePoolState::kActive);
  EXPECT_LE(most, 4) << "size + maximumSurge";
  EXPECT_GE(fewest_active, 3) << "size - maximumUnavailable";
  ASSERT_EQ(pool_->nodes().members().size(), 3u);
  for (const auto& [seq, m] : pool_->nodes().members()) EXPECT_EQ(m.version, "v1.31.0");
}

// The eviction grace caps a drain that would take longer.
TEST_F(OkeCyclingTest, TheEvictionGraceCapsTheDrain) {
  NodeCycling c = Cycling();
  c.enabled = true;
  c.drain_delay = DistSpec::Constant(2 * kHour);
  c.eviction_grace = 0;
  StartActive(1, c);
  SetMachinePool([](MachinePool* mp) { mp->spec.template_.spec.version = "v1.31.0"; });
  Pass();
  RunTo(loop_.Now() + 5 * kMinute);
  EXPECT_EQ(pool_->state(), NodePoolState::kActive);
}

}  // namespace
}  // namespace mpsim::oci
