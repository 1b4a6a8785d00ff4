// CAPS's Kapsule pool service (internal/service/scaleway/k8s/pool/pool.go)
// against a simulated pool: the upstream cases of pool_test.go
// (docs/reference/oci-scaleway.md §4.3) and the rows of the §3.1 table.
#include "models/kapsule/pool_service.h"

#include <gtest/gtest.h>

#include <regex>

#include "tests/models/kapsule/kapsule_fixture.h"

namespace mpsim::kapsule {
namespace {

class KapsuleServiceTest : public KapsuleTest {
 protected:
  void StartPool(int32_t size, UpgradePolicy policy = {}) {
    Start(size);
    service_ = std::make_unique<PoolService>(pool_.get(), &rec_, "mp-0");
    desired_ = {.size = size, .version = "1.30.0", .upgrade_policy = policy};
  }
  ServiceError Reconcile() { return service_->Reconcile(desired_, &imp_); }

  std::unique_ptr<PoolService> service_;
  DesiredPool desired_;
  InfraMachinePool imp_;
};

// pool_test.go:48 "creating pool": no pool, replicas 2, upgrade policy
// maxUnavailable 0 / maxSurge 2 -> CreatePool with size 2 and that policy;
// once the pool is ready, providerIDList has one entry per node and
// status.replicas is 2. Upstream's fake returns a pool that is already
// ready; Kapsule's is `scaling` first, which is a transient error (pool.go
// :120-122), so the list comes on a later pass.
TEST_F(KapsuleServiceTest, CreatingPoolSendsSizeAndUpgradePolicy) {
  StartPool(2, {.max_surge = 2, .max_unavailable = 0});
  const ServiceError first = Reconcile();
  EXPECT_EQ(Calls("k8s:CreatePool"), 1u);
  EXPECT_EQ(pool_->size(), 2);
  EXPECT_EQ(pool_->upgrade_policy(), (UpgradePolicy{.max_surge = 2, .max_unavailable = 0}));
  EXPECT_EQ(pool_->version(), "1.30.0");
  EXPECT_EQ(first.requeue_after, kPoolRetryTime);
  EXPECT_NE(first.error.message().find("is not yet ready: currently scaling"), std::string::npos);
  RunTo(2 * kMinute);
  ASSERT_TRUE(Reconcile().ok());
  EXPECT_EQ(Calls("k8s:CreatePool"), 1u);
  ASSERT_TRUE(imp_.spec.provider_id_list.has_value());
  EXPECT_EQ(imp_.spec.provider_id_list->size(), 2u);
  EXPECT_EQ(imp_.status.replicas, std::optional<int32_t>(2));
}

// pool_test.go:174 "pool exists and is up-to-date": no Create, Update or
// Upgrade call; the same providerIDList; status.replicas 2.
TEST_F(KapsuleServiceTest, UpToDatePoolCallsNothingAndListsTheNodes) {
  StartPool(2);
  (void)Reconcile();
  RunTo(2 * kMinute);
  ASSERT_TRUE(Reconcile().ok());
  const ProviderIDList before = *imp_.spec.provider_id_list;
  ASSERT_TRUE(Reconcile().ok());
  EXPECT_EQ(Calls("k8s:CreatePool"), 1u);
  EXPECT_EQ(Calls("k8s:UpdatePool"), 0u);
  EXPECT_EQ(Calls("k8s:UpgradePool"), 0u);
  EXPECT_EQ(*imp_.spec.provider_id_list, before);
  EXPECT_EQ(imp_.status.replicas, std::optional<int32_t>(2));
}

// pool_test.go:316 "delete pool": DeletePool is called and the answer is
// the transient "pool is being deleted" with poolRetryTime.
TEST_F(KapsuleServiceTest, DeletePoolIsTransientWithPoolRetryTime) {
  StartPool(2);
  (void)Reconcile();
  RunTo(2 * kMinute);
  const ServiceError e = service_->Delete();
  EXPECT_EQ(Calls("k8s:DeletePool"), 1u);
  EXPECT_EQ(e.requeue_after, 30 * kSecond);
  EXPECT_EQ(e.error.message(), "pool is being deleted");
  // pool.go:60-64: a pool already `deleting` gets no second DeletePool.
  EXPECT_EQ(service_->Delete().requeue_after, 30 * kSecond);
  EXPECT_EQ(Calls("k8s:DeletePool"), 1u);
  // pool.go:50-56: a pool that is gone is success.
  RunTo(3 * kMinute);
  EXPECT_TRUE(service_->Delete().ok());
}

// pool.go:125-137: a pool below the desired version gets UpgradePool, then a
// transient error; never a downgrade.
TEST_F(KapsuleServiceTest, UpgradesOnlyUpward) {
  StartPool(2);
  (void)Reconcile();
  RunTo(2 * kMinute);
  desired_.version = "1.29.9";
  EXPECT_TRUE(Reconcile().ok()) << "a lower version is up to date";
  EXPECT_EQ(Calls("k8s:UpgradePool"), 0u);
  desired_.version = "1.31.0";
  const ServiceError e = Reconcile();
  EXPECT_EQ(Calls("k8s:UpgradePool"), 1u);
  EXPECT_EQ(e.requeue_after, kPoolRetryTime);
  EXPECT_EQ(pool_->version(), "1.31.0");
  EXPECT_EQ(pool_->status(), PoolStatus::kUpgrading);
}

// pool.go:140-146, :233-239: a size that differs (autoscaling off) is an
// UpdatePool, then a transient error; so is a different upgrade policy
// (:257-266).
TEST_F(KapsuleServiceTest, SizeOrPolicyChangeIsUpdatePoolThenTransient) {
  StartPool(2);
  (void)Reconcile();
  RunTo(2 * kMinute);
  desired_.size = 4;
  EXPECT_EQ(Reconcile().requeue_after, kPoolRetryTime);
  EXPECT_EQ(Calls("k8s:UpdatePool"), 1u);
  EXPECT_EQ(pool_->size(), 4);
  RunTo(4 * kMinute);
  ASSERT_TRUE(Reconcile().ok());
  desired_.upgrade_policy = {.max_surge = 1, .max_unavailable = 0};
  EXPECT_EQ(Reconcile().requeue_after, kPoolRetryTime);
  EXPECT_EQ(Calls("k8s:UpdatePool"), 2u);
  EXPECT_EQ(pool_->upgrade_policy(), desired_.upgrade_policy);
}

// scope/managedmachinepool.go:153-165 (§3.2): each node's providerID as the
// API gives it, empty ones skipped: a node still creating has none yet.
TEST_F(KapsuleServiceTest, ProviderIdsSkipNodesWithoutOne) {
  StartPool(2);
  (void)Reconcile();
  RunTo(2 * kMinute);
  ASSERT_TRUE(Reconcile().ok());
  (void)pool_->Update(3, {});
  ASSERT_EQ(pool_->ListNodes().size(), 3u);
  EXPECT_TRUE(pool_->ListNodes().back()->provider_id.empty());
  EXPECT_EQ(ProviderIdsOf(*pool_).size(), 2u);
  const std::regex form(
      "scaleway://instance/fr-par-1/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-"
      "[89ab][0-9a-f]{3}-[0-9a-f]{12}");
  for (const SharedString& id : ProviderIdsOf(*pool_)) {
    EXPECT_TRUE(std::regex_match(id.str(), form)) << id.str();
  }
}

// scope/managedmachinepool.go:141-143 and :190-198 (§3.3): nil replicas mean
// 3, and the version loses its `v`.
TEST(KapsuleDesired, NilReplicasAreThreeAndTheVersionLosesItsV) {
  MachinePool mp;
  mp.spec.template_.spec.version = "v1.31.2";
  const DesiredPool d = DesiredOf(mp, {});
  EXPECT_EQ(d.size, 3);
  EXPECT_EQ(d.version, std::optional<std::string>("1.31.2"));
  EXPECT_EQ(d.upgrade_policy, (UpgradePolicy{.max_surge = 0, .max_unavailable = 1}));
  mp.spec.replicas = 7;
  mp.spec.template_.spec.version.reset();
  EXPECT_EQ(DesiredOf(mp, {}).size, 7);
  EXPECT_FALSE(DesiredOf(mp, {}).version.has_value());
}

}  // namespace
}  // namespace mpsim::kapsule
