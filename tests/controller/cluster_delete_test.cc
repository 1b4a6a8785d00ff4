// Cluster API's Cluster controller on deletion (controller/cluster_reconciler.h):
// expected values from core/reconcilers/cluster/cluster_controller_test.go
// (TestFilterOwnedDescendants :779, TestObjectsPendingDelete :895) and the
// flow of reconcileDelete (cluster_controller.go:332).
#include <gtest/gtest.h>

#include "controller/capi_names.h"
#include "controller/cluster_reconciler.h"
#include "tests/testing/fake_client.h"

namespace mpsim {
namespace {

OwnerReference ClusterDeleteTestOwner(const std::string& cluster) {
  return {.api_version = capi::kGroupVersion, .kind = "Cluster", .name = cluster};
}

template <class T>
std::shared_ptr<const T> ClusterDeleteTestNamed(const std::string& name, bool owned,
                                                bool control_plane = false) {
  auto obj = std::make_shared<T>();
  obj->meta = {.name = name, .ns = "default"};
  if (owned) obj->meta.owner_references = {ClusterDeleteTestOwner("c")};
  if (control_plane) obj->meta.labels[capi::kMachineControlPlaneLabel] = "";
  return obj;
}

std::vector<std::string> ClusterDeleteTestNames(const std::vector<OwnedDescendant>& owned) {
  std::vector<std::string> names;
  for (const OwnedDescendant& d : owned) names.push_back(d.Meta().name);
  return names;
}

// TestFilterOwnedDescendants "Without a control plane object", cut to the
// kinds the simulation has: owned MachinePools first, then worker Machines,
// then control plane Machines.
TEST(ClusterDeleteTest, FilterOwnedDescendantsKeepsOwnedInUpstreamOrder) {
  Cluster c;
  c.meta = {.name = "c", .ns = "default"};
  ClusterDescendants d;
  for (const auto& [name, owned] : std::vector<std::pair<std::string, bool>>{
           {"mp1", false}, {"mp2", true}, {"mp3", false}, {"mp4", true}}) {
    d.machine_pools.push_back(ClusterDeleteTestNamed<MachinePool>(name, owned));
  }
  d.control_plane_machines = {ClusterDeleteTestNamed<Machine>("m3", true, true),
                              ClusterDeleteTestNamed<Machine>("m6", true, true)};
  d.worker_machines = {
      ClusterDeleteTestNamed<Machine>("m1", false), ClusterDeleteTestNamed<Machine>("m2", true),
      ClusterDeleteTestNamed<Machine>("m4", false), ClusterDeleteTestNamed<Machine>("m5", true)};
  EXPECT_EQ(ClusterDeleteTestNames(FilterOwnedDescendants(d, c)),
            (std::vector<std::string>{"mp2", "mp4", "m2", "m5", "m3", "m6"}));
}

// TestObjectsPendingDelete "Without a control plane object", without the
// MachineDeployments and MachineSets (17 - 4 = 13 descendants).
TEST(ClusterDeleteTest, ObjectsPendingDeleteCountsAndNamesSorted) {
  ClusterDescendants d;
  d.machine_pools = {ClusterDeleteTestNamed<MachinePool>("mp2", false),
                     ClusterDeleteTestNamed<MachinePool>("mp1", false)};
  for (const char* n : {"cp1", "cp3", "cp2"}) {
    d.control_plane_machines.push_back(ClusterDeleteTestNamed<Machine>(n, false, true));
  }
  for (const char* n : {"w2", "w1", "w5", "w6", "w3", "w4", "w8", "w7"}) {
    d.worker_machines.push_back(ClusterDeleteTestNamed<Machine>(n, false));
  }
  EXPECT_EQ(d.ObjectsPendingDeleteCount(), 13u);
  EXPECT_EQ(
      d.ObjectsPendingDeleteNames(),
      (std::vector<std::string>{"Control plane Machines: cp1, cp2, cp3", "MachinePools: mp1, mp2",
                                "Worker Machines: w1, w2, w3, w4, w5, ... (3 more)"}));
}

class ClusterReconcileDeleteTest : public ::testing::Test {
 protected:
  ClusterReconcileDeleteTest() : client_(&clock_), reconciler_(&client_) {
    Cluster c;
    c.meta = {.name = "c", .ns = "default"};
    client_.clusters().Add(c);
    for (const char* name : {"mp-1", "mp-0"}) {
      MachinePool mp;
      mp.meta = {.name = name, .ns = "default"};
      mp.meta.labels[capi::kClusterNameLabel] = "c";
      mp.meta.owner_references = {ClusterDeleteTestOwner("c")};
      mp.meta.finalizers = {capi::kMachinePoolFinalizer};
      client_.machine_pools().Add(mp);
    }
  }
  Status Pass(Result* r) { return reconciler_.Reconcile({kCluster}, r); }
  const Cluster& TheCluster() { return client_.clusters().At(kCluster); }

  const ObjectKey kCluster{"default", "c"};
  fake::FakeClock clock_;
  fake::FakeClient client_;
  ClusterReconciler reconciler_;
};

TEST_F(ClusterReconcileDeleteTest, FinalizerFirstThenPendingPhase) {
  Result r;
  ASSERT_TRUE(Pass(&r).ok());
  EXPECT_TRUE(HasFinalizer(TheCluster().meta, capi::kClusterFinalizer));
  EXPECT_EQ(TheCluster().status.phase, "");  // the finalizer pass returns at once
  ASSERT_TRUE(Pass(&r).ok());
  EXPECT_EQ(TheCluster().status.phase, capi::kClusterPhasePending);
  EXPECT_FALSE(client_.machine_pools().At({"default", "mp-0"}).meta.deletion_timestamp);
}

TEST_F(ClusterReconcileDeleteTest, DeletesOwnedPoolsAndWaitsForThem) {
  Result r;
  ASSERT_TRUE(Pass(&r).ok());
  ASSERT_TRUE(client_.Clusters().Delete(kCluster).ok());
  ASSERT_TRUE(Pass(&r).ok());
  EXPECT_EQ(TheCluster().status.phase, capi::kClusterPhaseDeleting);
  EXPECT_TRUE(client_.machine_pools().At({"default", "mp-0"}).meta.deletion_timestamp);
  EXPECT_TRUE(client_.machine_pools().At({"default", "mp-1"}).meta.deletion_timestamp);
  // deleteRequeueAfter while descendants remain; the finalizer stays.
  EXPECT_EQ(r.requeue_after, 5 * kSecond);
  EXPECT_TRUE(HasFinalizer(TheCluster().meta, capi::kClusterFinalizer));
  // A deleting child is not deleted again.
  const int deletes = client_.machine_pools().calls(fake::Verb::kDelete);
  ASSERT_TRUE(Pass(&r).ok());
  EXPECT_EQ(client_.machine_pools().calls(fake::Verb::kDelete), deletes);
}

TEST_F(ClusterReconcileDeleteTest, FinalizerGoesWhenNoDescendantIsLeft) {
  Result r;
  ASSERT_TRUE(Pass(&r).ok());
  ASSERT_TRUE(client_.Clusters().Delete(kCluster).ok());
  ASSERT_TRUE(Pass(&r).ok());
  for (const char* name : {"mp-0", "mp-1"}) {
    MachinePool mp = client_.machine_pools().At({"default", name});
    const MachinePool base = mp;
    mp.meta.finalizers.clear();
    ASSERT_TRUE(client_.MachinePools().Patch(base, &mp).ok());
  }
  // A worker Machine of the pools (not owned by the Cluster) still holds it.
  Machine m;
  m.meta = {.name = "mp-0-a", .ns = "default"};
  m.meta.labels[capi::kClusterNameLabel] = "c";
  m.meta.finalizers = {capi::kMachineFinalizer};
  client_.machines().Add(m);
  r = {};
  ASSERT_TRUE(Pass(&r).ok());
  EXPECT_EQ(r.requeue_after, 5 * kSecond);
  EXPECT_FALSE(client_.machines().At(m.meta.Key()).meta.deletion_timestamp);
  m = client_.machines().At(m.meta.Key());
  const Machine mbase = m;
  m.meta.finalizers.clear();
  ASSERT_TRUE(client_.Machines().Patch(mbase, &m).ok());
  ASSERT_TRUE(client_.Machines().Delete(m.meta.Key()).ok());
  r = {};
  ASSERT_TRUE(Pass(&r).ok());
  EXPECT_EQ(r.requeue_after, 0);
  EXPECT_FALSE(client_.clusters().Has(kCluster));
  ASSERT_FALSE(client_.events.empty());
  EXPECT_EQ(client_.events.back().reason, "Deleted");
}

TEST_F(ClusterReconcileDeleteTest, PausedClusterIsLeftAlone) {
  Result r;
  ASSERT_TRUE(Pass(&r).ok());
  Cluster c = TheCluster();
  const Cluster base = c;
  c.spec.paused = true;
  ASSERT_TRUE(client_.Clusters().Patch(base, &c).ok());
  ASSERT_TRUE(client_.Clusters().Delete(kCluster).ok());
  ASSERT_TRUE(Pass(&r).ok());
  EXPECT_FALSE(client_.machine_pools().At({"default", "mp-0"}).meta.deletion_timestamp);
}

}  // namespace
}  // namespace mpsim
