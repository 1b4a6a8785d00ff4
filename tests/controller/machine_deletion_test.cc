// The Machine controller's deletion flow for MachinePool Machines: a live
// Machine gets the finalizer; a deleted one deletes its InfraMachine first
// and keeps the finalizer until that is gone.
#include <gtest/gtest.h>

#include "controller/capi_names.h"
#include "controller/machine_reconciler.h"
#include "tests/testing/fake_client.h"

namespace mpsim {
namespace {

class MachineDeletionTest : public ::testing::Test {
 protected:
  MachineDeletionTest() : client_(&clock_), reconciler_(&client_, &clock_) {}

  void SetUp() override {
    Cluster cluster;
    cluster.meta = {.name = "c", .ns = "default"};
    client_.clusters().Add(cluster);
    Machine m;
    m.meta = {.name = "mp-0-00000", .ns = "default"};
    m.spec.cluster_name = "c";
    m.spec.infrastructure_ref = {.kind = "TestMachine", .ns = "default", .name = "mp-0-00000"};
    client_.machines().Add(m);
    InfraMachine im;
    im.meta = {.name = "mp-0-00000", .ns = "default"};
    im.meta.finalizers = {"testmachine.infrastructure.cluster.x-k8s.io"};
    im.kind = "TestMachine";
    client_.infra_machines().Add(im);
  }

  Status Pass() {
    Result r;
    return reconciler_.Reconcile({kMachine}, &r);
  }
  const Machine& TheMachine() { return client_.machines().At(kMachine); }

  const ObjectKey kMachine{"default", "mp-0-00000"};
  fake::FakeClock clock_;
  fake::FakeClient client_;
  MachineReconciler reconciler_;
};

TEST_F(MachineDeletionTest, ALiveMachineGetsTheFinalizerAndKeepsItsInfraMachine) {
  ASSERT_TRUE(Pass().ok());
  EXPECT_TRUE(HasFinalizer(TheMachine().meta, capi::kMachineFinalizer));
  ASSERT_TRUE(Pass().ok());
  EXPECT_FALSE(client_.infra_machines().At(kMachine).meta.deletion_timestamp);
}

TEST_F(MachineDeletionTest, ADeletedMachineWaitsForItsInfraMachineToBeGone) {
  ASSERT_TRUE(Pass().ok());
  ASSERT_TRUE(client_.Machines().Delete(kMachine).ok());
  ASSERT_TRUE(Pass().ok());
  // The InfraMachine is deleting (its provider's finalizer holds it) and the
  // Machine waits for it.
  ASSERT_TRUE(client_.infra_machines().Has(kMachine));
  EXPECT_TRUE(client_.infra_machines().At(kMachine).meta.deletion_timestamp);
  ASSERT_TRUE(Pass().ok());
  ASSERT_TRUE(client_.machines().Has(kMachine));
  // The provider releases the InfraMachine; the Machine then goes.
  InfraMachine im = client_.infra_machines().At(kMachine);
  const InfraMachine base = im;
  im.meta.finalizers.clear();
  ASSERT_TRUE(client_.InfraMachines().Patch(base, &im).ok());
  ASSERT_FALSE(client_.infra_machines().Has(kMachine));
  ASSERT_TRUE(Pass().ok());
  EXPECT_FALSE(client_.machines().Has(kMachine));
}

// A Machine whose InfraMachine is ready has a Node: the drain (here 90 s)
// comes before the InfraMachine's delete.
TEST_F(MachineDeletionTest, AReadyMachineIsDrainedBeforeItsInfraMachineIsDeleted) {
  MachineReconciler draining(&client_, &clock_, [](const Machine&) { return 90 * kSecond; });
  InfraMachine im = client_.infra_machines().At(kMachine);
  im.status.ready = true;
  client_.infra_machines().Add(im);
  Result r;
  ASSERT_TRUE(draining.Reconcile({kMachine}, &r).ok());
  ASSERT_TRUE(client_.Machines().Delete(kMachine).ok());
  clock_.Advance(30 * kSecond);
  r = {};
  ASSERT_TRUE(draining.Reconcile({kMachine}, &r).ok());
  EXPECT_EQ(r.requeue_after, 60 * kSecond);
  EXPECT_FALSE(client_.infra_machines().At(kMachine).meta.deletion_timestamp);
  clock_.Advance(60 * kSecond);
  r = {};
  ASSERT_TRUE(draining.Reconcile({kMachine}, &r).ok());
  EXPECT_TRUE(client_.infra_machines().At(kMachine).meta.deletion_timestamp);
}

// No Node (the InfraMachine is not ready): nothing to drain.
TEST_F(MachineDeletionTest, AMachineWithoutANodeIsNotDrained) {
  MachineReconciler draining(&client_, &clock_, [](const Machine&) { return 90 * kSecond; });
  Result r;
  ASSERT_TRUE(draining.Reconcile({kMachine}, &r).ok());
  ASSERT_TRUE(client_.Machines().Delete(kMachine).ok());
  ASSERT_TRUE(draining.Reconcile({kMachine}, &r).ok());
  EXPECT_EQ(r.requeue_after, 0);
  EXPECT_TRUE(client_.infra_machines().At(kMachine).meta.deletion_timestamp);
}

TEST_F(MachineDeletionTest, AGoneMachineIsNotAnError) {
  Result r;
  EXPECT_TRUE(reconciler_.Reconcile({{"default", "nope"}}, &r).ok());
  EXPECT_EQ(r, Result{});
}

}  // namespace
}  // namespace mpsim
