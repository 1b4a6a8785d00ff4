// The simulated Kapsule pool: the upgrade policy's bounds (the Kapsule API's
// upgrade_policy: max_unavailable nodes not ready at once, max_surge nodes
// created above the size; CAPS's defaults 0 and 1, docs/reference/oci-scaleway.md
// §3.3), the zone's capacity, and IDs that replay from the seed.
#include "models/kapsule/kapsule_pool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "tests/models/kapsule/kapsule_fixture.h"

namespace mpsim::kapsule {
namespace {

struct KapsuleCounts {
  int32_t live = 0, ready = 0, outdated = 0;
};

KapsuleCounts CountNodes(const KapsulePool& pool) {
  KapsuleCounts c;
  for (const KapsuleNode* n : pool.ListNodes()) {
    if (n->status == NodeStatus::kDeleting) continue;
    ++c.live;
    c.ready += n->status == NodeStatus::kReady;
    c.outdated += n->version != pool.version();
  }
  return c;
}

class KapsulePoolTest : public KapsuleTest {
 protected:
  // Upgrades a ready pool of `size` and steps the loop a second at a time
  // until it is ready again, keeping the extremes.
  void UpgradeAndWatch(int32_t size, UpgradePolicy policy) {
    KapsuleOptions o = Options();
    o.upgrade_policy = policy;
    pool_ = std::make_unique<KapsulePool>(&loop_, &workload_, &rec_, "mp-0", o, 1);
    ASSERT_TRUE(pool_->Create(size, "1.30.0", policy).ok());
    RunTo(2 * kMinute);
    ASSERT_EQ(pool_->status(), PoolStatus::kReady);
    ASSERT_TRUE(pool_->Upgrade("1.31.0").ok());
    for (int s = 0; s < 3600 && pool_->status() != PoolStatus::kReady; ++s) {
      const KapsuleCounts c = CountNodes(*pool_);
      max_live_ = std::max(max_live_, c.live);
      min_ready_ = std::min(min_ready_, c.ready);
      RunTo(loop_.Now() + kSecond);
    }
  }
  int32_t max_live_ = 0;
  int32_t min_ready_ = 1 << 30;
};

TEST_F(KapsulePoolTest, DefaultPolicyReplacesOneNodeAtATimeWithoutSurge) {
  UpgradeAndWatch(4, {.max_surge = 0, .max_unavailable = 1});
  EXPECT_EQ(pool_->status(), PoolStatus::kReady);
  EXPECT_EQ(CountNodes(*pool_).outdated, 0);
  EXPECT_EQ(CountNodes(*pool_).ready, 4);
  EXPECT_EQ(max_live_, 4) << "maxSurge 0: never above the size";
  EXPECT_EQ(min_ready_, 3) << "maxUnavailable 1: one node out at a time";
}

TEST_F(KapsulePoolTest, SurgePolicyKeepsEveryNodeReady) {
  UpgradeAndWatch(4, {.max_surge = 2, .max_unavailable = 0});
  EXPECT_EQ(pool_->status(), PoolStatus::kReady);
  EXPECT_EQ(CountNodes(*pool_).outdated, 0);
  EXPECT_EQ(max_live_, 6);
  EXPECT_EQ(min_ready_, 4);
}

// With both 0 nothing may go and nothing may be added: the upgrade never ends
// (the warning of kapsule_validate.cc).
TEST_F(KapsulePoolTest, ZeroPolicyNeverUpgrades) {
  UpgradeAndWatch(2, {.max_surge = 0, .max_unavailable = 0});
  EXPECT_EQ(pool_->status(), PoolStatus::kUpgrading);
  EXPECT_EQ(CountNodes(*pool_).outdated, 2);
}

// Beyond the zone's capacity a node is creation_error and retried; it comes
// up once a deleted instance frees room.
TEST_F(KapsuleTest, CapacityShortageLeavesNodesInCreationError) {
  KapsuleOptions o = Options();
  o.capacity = 2;
  pool_ = std::make_unique<KapsulePool>(&loop_, &workload_, &rec_, "mp-0", o, 1);
  ASSERT_TRUE(pool_->Create(3, "1.30.0", {}).ok());
  RunTo(5 * kMinute);
  int errors = 0;
  for (const KapsuleNode* n : pool_->ListNodes()) errors += n->status == NodeStatus::kCreationError;
  EXPECT_EQ(errors, 1);
  EXPECT_EQ(pool_->status(), PoolStatus::kScaling);
  ASSERT_TRUE(pool_->Update(1, {}).ok());
  RunTo(10 * kMinute);
  EXPECT_EQ(pool_->status(), PoolStatus::kReady);
  EXPECT_EQ(Live(), 1);
}

// A scale-down takes nodes not ready first, then the newest.
TEST_F(KapsuleTest, ScaleDownTakesNotReadyThenNewest) {
  pool_ = std::make_unique<KapsulePool>(&loop_, &workload_, &rec_, "mp-0", Options(), 1);
  ASSERT_TRUE(pool_->Create(2, "1.30.0", {}).ok());
  RunTo(2 * kMinute);
  ASSERT_TRUE(pool_->Update(4, {}).ok());  // two more, creating
  const std::string oldest = pool_->ListNodes().front()->name;
  ASSERT_TRUE(pool_->Update(1, {}).ok());
  std::vector<std::string> kept;
  for (const KapsuleNode* n : pool_->ListNodes()) {
    if (n->status != NodeStatus::kDeleting) kept.push_back(n->name);
  }
  EXPECT_EQ(kept, std::vector<std::string>{oldest});
}

// The same seed gives the same UUIDs, names and providerIDs; another seed others.
TEST(KapsuleReplay, IdsReplayFromTheSeed) {
  auto ids = [](uint64_t seed) {
    EventLoop loop;
    Recorder rec;
    ApiServer server(&loop);
    WorkloadCluster workload(&loop, &server, &rec, WorkloadOptions{}, seed);
    KapsuleOptions o;
    o.launch_delay = DistSpec::Constant(kSecond);
    KapsulePool pool(&loop, &workload, &rec, "mp-0", o, seed);
    EXPECT_TRUE(pool.Create(5, "1.30.0", {}).ok());
    loop.Run(kMinute, 1'000'000);
    std::vector<std::string> out;
    for (const KapsuleNode* n : pool.ListNodes()) out.push_back(n->provider_id.str() + n->name);
    return out;
  };
  EXPECT_EQ(ids(7), ids(7));
  EXPECT_NE(ids(7), ids(8));
  EXPECT_EQ(ids(7).size(), 5u);
}

}  // namespace
}  // namespace mpsim::kapsule
