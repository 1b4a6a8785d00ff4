// The simulated OCI instance pool (docs/reference/oci-scaleway.md §1.4, §6):
// OCIDs in the documented form from the pool's own stream, scale-in
// balanced across availability domains and oldest first, a new
// configuration for new instances only, and a capacity shortage that keeps
// the pool SCALING.
#include "models/oci/instance_pool.h"

#include <gtest/gtest.h>

#include <regex>

#include "tests/models/oci/oci_fixture.h"

namespace mpsim::oci {
namespace {

class OciInstancePoolTest : public ProviderControllerTest {
 protected:
  void Make(FleetOptions o) {
    pool_ = std::make_unique<InstancePool>(&loop_, &workload_, &rec_, "mp-0", std::move(o), 7);
    ic_ = pool_->CreateInstanceConfiguration("v1.30.0", "h").id;
  }
  std::unique_ptr<InstancePool> pool_;
  std::string ic_;
};

// identifiers.htm: ocid1.<type>.oc1.<region>.<unique>, the example's unique
// part 60 lowercase base32 characters; names inst-<5>-<pool>.
TEST_F(OciInstancePoolTest, IdsAndNamesHaveTheDocumentedForm) {
  Make(OciTestFleet("oci://"));
  ASSERT_TRUE(pool_->Create(3, ic_).ok());
  EXPECT_TRUE(std::regex_match(pool_->ocid(),
                               std::regex("ocid1\\.instancepool\\.oc1\\.iad\\.[a-z2-7]{60}")));
  for (const auto& [seq, m] : pool_->instances().members()) {
    EXPECT_TRUE(std::regex_match(m.ocid, std::regex("ocid1\\.instance\\.oc1\\.iad\\.[a-z2-7]{60}")))
        << m.ocid;
    EXPECT_TRUE(std::regex_match(m.name, std::regex("inst-[a-z0-9]{5}-mp-0"))) << m.name;
    EXPECT_EQ(m.provider_id.str(), "oci://" + m.ocid);
  }
}

// The same seed draws the same IDs: a run replays.
TEST_F(OciInstancePoolTest, IdsReplayFromTheSeed) {
  Make(OciTestFleet("oci://"));
  ASSERT_TRUE(pool_->Create(2, ic_).ok());
  EventLoop loop2;
  Recorder rec2;
  ApiServer server2(&loop2);
  WorkloadCluster workload2(&loop2, &server2, &rec2, WorkloadOptions{}, 1);
  InstancePool again(&loop2, &workload2, &rec2, "mp-0", OciTestFleet("oci://"), 7);
  ASSERT_TRUE(again.Create(2, again.CreateInstanceConfiguration("v1.30.0", "h").id).ok());
  EXPECT_EQ(again.ocid(), pool_->ocid());
  EXPECT_EQ(again.instances().members().begin()->second.ocid,
            pool_->instances().members().begin()->second.ocid);
}

// updatinginstancepool_topic-update-instance-pool-size.htm: balance across
// availability domains first, then the oldest instance.
TEST_F(OciInstancePoolTest, ScaleInBalancesDomainsThenTakesTheOldest) {
  FleetOptions o = OciTestFleet("oci://");
  o.zones = {"AD-1", "AD-2"};
  Make(o);
  ASSERT_TRUE(pool_->Create(4, ic_).ok());  // AD-1, AD-2, AD-1, AD-2
  RunTo(2 * kMinute);
  ASSERT_TRUE(pool_->Update(5, ic_).ok());  // the fifth goes to AD-1
  RunTo(4 * kMinute);
  ASSERT_EQ(pool_->state(), InstancePoolState::kRunning);
  const std::vector<uint64_t> order = pool_->instances().ScaleInOrder(3);
  // AD-1 holds 0, 2, 4 and AD-2 holds 1, 3: AD-1's oldest, then the
  // domains tie and the oldest of the two goes (1), then AD-1 again.
  ASSERT_EQ(order.size(), 3u);
  EXPECT_EQ(order[0], 0u);
  EXPECT_EQ(order[1], 1u);
  EXPECT_EQ(order[2], 2u);
}

// A resize is SCALING until every kept instance is RUNNING and the removed
// ones are TERMINATED (oci-scaleway.md §1.2), then RUNNING.
TEST_F(OciInstancePoolTest, ScalingLastsUntilTheInstancesAreThere) {
  Make(OciTestFleet("oci://"));
  ASSERT_TRUE(pool_->Create(2, ic_).ok());
  EXPECT_EQ(pool_->state(), InstancePoolState::kProvisioning);
  RunTo(kMinute);
  EXPECT_EQ(pool_->state(), InstancePoolState::kRunning);
  ASSERT_TRUE(pool_->Update(1, ic_).ok());
  EXPECT_EQ(pool_->state(), InstancePoolState::kScaling);
  RunTo(kMinute + 29 * kSecond);
  EXPECT_EQ(pool_->state(), InstancePoolState::kScaling);
  RunTo(kMinute + 30 * kSecond);
  EXPECT_EQ(pool_->state(), InstancePoolState::kRunning);
}

// oci-scaleway.md §6.2: without room the instance stays PROVISIONING and
// the pool SCALING, until room frees.
TEST_F(OciInstancePoolTest, ACapacityShortageKeepsThePoolScalingUntilRoomFrees) {
  FleetOptions o = OciTestFleet("oci://");
  o.capacity["AD-1"] = 2;
  Make(o);
  ASSERT_TRUE(pool_->Create(3, ic_).ok());
  RunTo(10 * kMinute);
  EXPECT_EQ(pool_->state(), InstancePoolState::kProvisioning);
  EXPECT_EQ(pool_->instances().up(), 2);
  EXPECT_EQ(pool_->instances().live(), 3);
  ASSERT_TRUE(pool_->Update(2, ic_).ok());
  RunTo(11 * kMinute);
  EXPECT_EQ(pool_->state(), InstancePoolState::kRunning) << "the waiting instance went first";
  EXPECT_EQ(pool_->instances().up(), 2);
}

}  // namespace
}  // namespace mpsim::oci
