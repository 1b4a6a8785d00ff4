// CAPS's ScalewayManagedMachinePool controller with a simulated Kapsule pool
// and a fake API client: the upstream cases of
// scalewaymanagedmachinepool_controller_test.go (docs/reference/oci-scaleway.md
// §4.3) and the error model of §3.1 (30 s transient retries, no requeue on
// success, the list written only when the pool is ready).
#include "models/kapsule/scalewaymanagedmachinepool_reconciler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "tests/models/kapsule/kapsule_fixture.h"

namespace mpsim::kapsule {
namespace {

bool HasKapsuleFinalizer(const InfraMachinePool& imp) {
  return HasFinalizer(imp.meta, kScalewayManagedMachinePoolFinalizer);
}

// controller_test.go:174 "should reconcile normally": result {}, ready and
// provisioned true, finalizer present.
TEST_F(KapsuleTest, ReconcilesNormallyToReadyWithNoRequeue) {
  Start(2);
  FollowRequeues();
  EXPECT_EQ(Pass(), 0) << "success asks for no requeue (sctl:165-168)";
  EXPECT_EQ(Imp().status.ready, std::optional<bool>(true));
  EXPECT_EQ(Imp().status.initialization_provisioned, std::optional<bool>(true));
  EXPECT_TRUE(HasKapsuleFinalizer(Imp()));
}

// controller_test.go:308 "should reconcile deletion": once Delete returns
// nil the result is {} and the finalizer is removed, so the object is gone.
// Before that, each pass is the 30 s transient retry (pool.go:39-70).
TEST_F(KapsuleTest, ReconcilesDeletionUntilTheFinalizerGoes) {
  StartIdle(2);
  ASSERT_TRUE(client_.infra_machine_pools().Delete(kKapsuleKey).ok());
  EXPECT_EQ(Pass(), 30 * kSecond);
  EXPECT_EQ(pool_->status(), PoolStatus::kDeleting);
  EXPECT_TRUE(client_.infra_machine_pools().Has(kKapsuleKey));
  FollowRequeues();
  EXPECT_EQ(pool_->status(), PoolStatus::kAbsent);
  EXPECT_FALSE(client_.infra_machine_pools().Has(kKapsuleKey));
  EXPECT_EQ(Calls("k8s:DeletePool"), 1u);
}

// controller_test.go:67 (Ginkgo) "should successfully reconcile the
// resource": an object without an owner MachinePool is no error and no
// requeue (sctl:66-72).
TEST_F(KapsuleTest, NoOwnerIsNoErrorAndNoRequeue) {
  Start(2);
  InfraMachinePool imp = Imp();
  imp.meta.owner_references.clear();
  client_.infra_machine_pools().Add(imp);
  EXPECT_EQ(Pass(), 0);
  EXPECT_EQ(Calls("k8s:CreatePool"), 0u);
}

// pool.go:25, :120-122 (§3.1): every pass while the pool is `scaling` is a
// RequeueAfter of exactly 30 s with no error, until the nodes are ready
// (60 s here): requeues at 30 s and 60 s, then {}.
TEST_F(KapsuleTest, NotReadyPoolRetriesEvery30Seconds) {
  Start(3);
  const std::vector<Time> at = FollowRequeues();
  EXPECT_EQ(at, (std::vector<Time>{30 * kSecond, 60 * kSecond}));
  EXPECT_EQ(Imp().status.replicas, std::optional<int32_t>(3));
}

// §3.2 (d): the list is rebuilt only on success, so it keeps its last value
// while Kapsule scales; ready is never set back to false (§3.1).
TEST_F(KapsuleTest, ListKeepsItsLastValueWhileScaling) {
  StartIdle(2);
  const auto before = Imp().spec.provider_id_list;
  SetMachinePool([](MachinePool* mp) { mp->spec.replicas = 5; });
  EXPECT_EQ(Pass(), 30 * kSecond) << "UpdatePool, then transient";
  EXPECT_EQ(Pass(), 30 * kSecond) << "scaling";
  EXPECT_EQ(Imp().spec.provider_id_list, before);
  EXPECT_EQ(Imp().status.replicas, std::optional<int32_t>(2));
  EXPECT_EQ(Imp().status.ready, std::optional<bool>(true));
  FollowRequeues();
  EXPECT_EQ(ListText().size(), 5u);
  EXPECT_EQ(Imp().status.replicas, std::optional<int32_t>(5));
}

// The done-when of issue 51: a 10-replica pool converges with the upstream
// providerID form, scaleway://instance/<zone>/<uuid> (§3.2).
TEST_F(KapsuleTest, TenReplicasConvergeWithInstanceProviderIds) {
  StartIdle(10);
  const std::vector<std::string> ids = ListText();
  ASSERT_EQ(ids.size(), 10u);
  for (const std::string& id : ids) {
    EXPECT_TRUE(id.starts_with("scaleway://instance/fr-par-1/")) << id;
    EXPECT_EQ(id.size(), std::string("scaleway://instance/fr-par-1/").size() + 36) << id;
  }
  EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()).size(), 10u);
}

// §3.3: a MachinePool version change is one UpgradePool, then 30 s retries
// while Kapsule replaces the nodes; it converges with every node new.
TEST_F(KapsuleTest, UpgradeConvergesOnTheNewVersion) {
  StartIdle(3);
  const std::vector<std::string> old_ids = ListText();
  SetMachinePool([](MachinePool* mp) { mp->spec.template_.spec.version = "v1.31.0"; });
  FollowRequeues();
  EXPECT_EQ(Calls("k8s:UpgradePool"), 1u);
  EXPECT_EQ(pool_->version(), "1.31.0");
  for (const KapsuleNode* node : pool_->ListNodes()) EXPECT_EQ(node->version, "1.31.0");
  const std::vector<std::string> new_ids = ListText();
  ASSERT_EQ(new_ids.size(), 3u);
  for (const std::string& id : new_ids) {
    EXPECT_EQ(std::count(old_ids.begin(), old_ids.end(), id), 0) << "replaced, not reused";
  }
}

// PoolReady (pool.go:73-93) is False while the service waits and True once
// it succeeds; its change is a timeline row.
TEST_F(KapsuleTest, PoolReadyConditionRow) {
  Start(1);
  FollowRequeues();
  int rows = 0;
  for (const TimelineRow& r : rec_.rows()) {
    if (r.object_kind == kScalewayManagedMachinePoolKind && r.field == "PoolReady") {
      ++rows;
      EXPECT_EQ(r.to, "True");
      EXPECT_EQ(r.time, 60 * kSecond);
    }
  }
  EXPECT_EQ(rows, 1);
}

}  // namespace
}  // namespace mpsim::kapsule

namespace mpsim::kapsule {
namespace {

// sctl:80-83 (annotations.IsPaused): a paused Cluster ends the pass with no
// requeue and no Kapsule call.
TEST_F(KapsuleTest, PausedClusterStopsThePass) {
  Start(2);
  Cluster c;
  c.meta = {.name = "c-0", .ns = "default"};
  c.spec.paused = true;
  client_.clusters().Add(c);
  SetMachinePool([](MachinePool* mp) { mp->spec.cluster_name = "c-0"; });
  EXPECT_EQ(Pass(), 0);
  EXPECT_EQ(Calls("k8s:ListPools"), 0u);
  c.spec.paused = false;
  client_.clusters().Add(c);
  EXPECT_EQ(Pass(), 30 * kSecond);
  EXPECT_EQ(Calls("k8s:CreatePool"), 1u);
}

}  // namespace
}  // namespace mpsim::kapsule
