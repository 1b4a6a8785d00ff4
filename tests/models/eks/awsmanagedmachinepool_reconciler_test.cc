// CAPA's AWSManagedMachinePool controller (docs/reference/aws-managed.md §1).
// Upstream has no test of the waiter, the version step or setStatus (§5):
// the expected values come from the reference's facts, cited per test.
#include "models/eks/awsmanagedmachinepool_reconciler.h"

#include <gtest/gtest.h>

#include "tests/models/eks/eks_fixture.h"

namespace mpsim::eks {
namespace {

class EksControllerTest : public EksTest {};

bool AllAwsIds(const std::vector<std::string>& ids) {
  for (const std::string& id : ids) {
    if (id.rfind("aws:///us-east-1a/i-", 0) != 0) return false;
  }
  return true;
}

// §1.5 "same pass" and §1.4: the pass that creates the group patches the
// status (not ready, no list: CREATING) and then waits, polling at once and
// again 30 s later.
TEST_F(EksControllerTest, CreateThenWaitInTheSamePass) {
  Start(3);
  Result res;
  ASSERT_TRUE(Call(&res).ok());
  EXPECT_EQ(Calls("eks:CreateNodegroup"), 1u);
  EXPECT_EQ(ng_->status(), NodegroupStatus::kCreating);
  EXPECT_EQ(res.hold_for, 30 * kSecond);
  EXPECT_EQ(res.requeue_after, 0);
  EXPECT_EQ(Imp().status.ready, std::optional<bool>(false));
  EXPECT_TRUE(ProviderIds().empty()) << "no list while CREATING (§1.3)";
  EXPECT_EQ(Calls("eks:DescribeNodegroup"), 2u) << "reconcileNodegroup's and the waiter's first";
  RunTo(30 * kSecond);
  res = Result{};
  ASSERT_TRUE(Call(&res).ok());
  EXPECT_GE(res.hold_for, 30 * kSecond);
  EXPECT_LT(res.hold_for, 60 * kSecond);
}

// §1.3, §1.4: once the waiter sees ACTIVE the pass describes again and
// rebuilds the list from every ASG instance, aws:///<az>/<id>, ready; and
// returns with no requeue of its own (§1.1).
TEST_F(EksControllerTest, ActiveWritesTheListAndDoesNotRequeue) {
  Start(10);
  std::vector<Duration> holds;
  Result last;
  ASSERT_TRUE(Pass(&holds, &last).ok());
  EXPECT_EQ(ng_->status(), NodegroupStatus::kActive);
  EXPECT_EQ(last.requeue_after, 0);
  EXPECT_FALSE(last.requeue);
  ASSERT_FALSE(holds.empty());
  EXPECT_EQ(holds.front(), 30 * kSecond);
  const std::vector<std::string> ids = ProviderIds();
  EXPECT_EQ(ids.size(), 10u);
  EXPECT_TRUE(AllAwsIds(ids));
  EXPECT_EQ(Imp().status.ready, std::optional<bool>(true));
  EXPECT_EQ(Imp().status.replicas, std::optional<int32_t>(10));
}

// §1.6: a MachinePool three minors ahead gets one UpdateNodegroupVersion to
// the next minor only, and the pass that sends it returns without waiting.
TEST_F(EksControllerTest, VersionUpdateSendsTheNextMinorOnly) {
  Start(2);
  ASSERT_TRUE(Pass().ok());
  SetMachinePool([](MachinePool* mp) { mp->spec.template_.spec.version = "v1.33.1"; });
  Result res;
  ASSERT_TRUE(Call(&res).ok());
  EXPECT_EQ(Calls("eks:UpdateNodegroupVersion"), 1u);
  EXPECT_EQ(res.hold_for, 0) << "the status was ACTIVE when this pass described it";
  EXPECT_EQ(ng_->status(), NodegroupStatus::kUpdating);
  // The next pass waits the update out, then sends 1.31 -> 1.32.
  ASSERT_TRUE(Pass().ok());
  EXPECT_EQ(ng_->version(), "1.31");
  EXPECT_EQ(Calls("eks:UpdateNodegroupVersion"), 2u);
  EXPECT_EQ(ng_->status(), NodegroupStatus::kUpdating);
}

// §1.7 "Stale node group": a version and a size change in one pass; the
// config step compares with the node group described before the version
// call, so UpdateNodegroupConfig is sent while the group is UPDATING and
// refused (ResourceInUseException, unverified); the error fails the pass.
TEST_F(EksControllerTest, ConfigAfterVersionInOnePassIsSentWhileUpdating) {
  Start(2);
  ASSERT_TRUE(Pass().ok());
  SetMachinePool([](MachinePool* mp) {
    mp->spec.template_.spec.version = "v1.31.0";
    mp->spec.replicas = 3;
  });
  Result res;
  const Status s = Call(&res);
  EXPECT_EQ(Calls("eks:UpdateNodegroupVersion"), 1u);
  EXPECT_EQ(Calls("eks:UpdateNodegroupConfig"), 1u);
  EXPECT_TRUE(s.IsConflict()) << s.message();
  EXPECT_NE(s.message().find("ResourceInUseException"), std::string::npos) << s.message();
}

// §1.6: the group is never downgraded.
TEST_F(EksControllerTest, NoDowngrade) {
  Start(1);
  ASSERT_TRUE(Pass().ok());
  SetMachinePool([](MachinePool* mp) { mp->spec.template_.spec.version = "v1.29.0"; });
  ASSERT_TRUE(Pass().ok());
  EXPECT_EQ(Calls("eks:UpdateNodegroupVersion"), 0u);
}

// §1.3: UPDATING counts as ready and the list is rebuilt before the wait.
TEST_F(EksControllerTest, UpdatingIsReadyAndListedBeforeTheWait) {
  Start(2);
  ASSERT_TRUE(Pass().ok());
  SetMachinePool([](MachinePool* mp) { mp->spec.replicas = 4; });
  ASSERT_TRUE(Pass().ok());  // sends UpdateNodegroupConfig
  EXPECT_EQ(Calls("eks:UpdateNodegroupConfig"), 1u);
  RunTo(loop_.Now() + 20 * kSecond);  // launched, not yet ACTIVE
  ASSERT_EQ(ng_->status(), NodegroupStatus::kUpdating);
  Result res;
  ASSERT_TRUE(Call(&res).ok());
  EXPECT_GT(res.hold_for, 0);
  EXPECT_EQ(Imp().status.ready, std::optional<bool>(true));
  EXPECT_EQ(ProviderIds().size(), 4u) << "Pending instances are listed too (§1.3)";
}

// §1.4 and CAPA#5672 (§4.1): nodes that never join keep the group UPDATING;
// the pass holds its worker for the whole 30 min budget, then fails with the
// SDK's message, and the list stays as setStatus left it before the wait.
TEST_F(EksControllerTest, NeverJoiningUpdateHoldsTheWorkerForTheBudget) {
  EksOptions o = EksTestOptions();
  o.upgraded_nodes_join = false;
  Start(2, o);
  ASSERT_TRUE(Pass().ok());
  SetMachinePool([](MachinePool* mp) { mp->spec.template_.spec.version = "v1.31.0"; });
  ASSERT_TRUE(Pass().ok());
  const std::vector<std::string> before = ProviderIds();
  const Time start = loop_.Now();
  std::vector<Duration> holds;
  Status s = Pass(&holds);
  EXPECT_EQ(s.code(), Status::Code::kTimeout);
  EXPECT_NE(s.message().find("exceeded max wait time for NodegroupActive waiter"),
            std::string::npos)
      << s.message();
  const Duration held = loop_.Now() - start;
  EXPECT_LE(held, 30 * kMinute);
  EXPECT_GT(held, 28 * kMinute);
  EXPECT_EQ(ProviderIds(), before) << "frozen during the wait (§1.4)";
  EXPECT_EQ(ng_->status(), NodegroupStatus::kUpdating);
  // The next pass waits again (§1.4 "budget spent").
  Result res;
  ASSERT_TRUE(Call(&res).ok());
  EXPECT_EQ(res.hold_for, 30 * kSecond);
}

// §1.4 "Defect": under the replicas-managed-by annotation a failed waiter
// leaves ng nil, which is dereferenced: a recovered panic, not the waiter's error.
TEST_F(EksControllerTest, FailedWaiterUnderAutoscalerIsANilDereference) {
  EksOptions o = EksTestOptions();
  o.upgraded_nodes_join = false;
  o.max_wait = 5 * kMinute;
  Start(2, o);
  ASSERT_TRUE(Pass().ok());
  SetMachinePool([](MachinePool* mp) {
    mp->spec.template_.spec.version = "v1.31.0";
    mp->meta.annotations[kReplicasManagedBy] = "external-autoscaler";
  });
  ASSERT_TRUE(Pass().ok());
  Status s = Pass();
  EXPECT_EQ(s.code(), Status::Code::kInternal);
  EXPECT_NE(s.message().find("nil pointer dereference"), std::string::npos) << s.message();
}

// §1.5: maxSize without minSize is a nil dereference in scalingConfig.
TEST_F(EksControllerTest, MaxSizeWithoutMinSizePanics) {
  EksOptions o = EksTestOptions();
  o.max_size = 5;
  Start(2, o);
  Status s = Pass();
  EXPECT_EQ(s.code(), Status::Code::kInternal);
  EXPECT_EQ(Calls("eks:CreateNodegroup"), 0u);
}

// §1.5, §2.3: minSize above the replicas passes admission and gets EKS's 400.
TEST_F(EksControllerTest, MinSizeAboveDesiredIsRejectedByEks) {
  EksOptions o = EksTestOptions();
  o.min_size = 2;
  o.max_size = 5;
  Start(1, o);
  Status s = Pass();
  EXPECT_EQ(s.code(), Status::Code::kInvalid);
  EXPECT_NE(s.message().find("InvalidParameterException"), std::string::npos) << s.message();
}

// §1.5: desiredSize is 1 when the MachinePool's replicas are unset.
TEST_F(EksControllerTest, DesiredSizeDefaultsToOne) {
  Start(3);
  SetMachinePool([](MachinePool* mp) { mp->spec.replicas.reset(); });
  ASSERT_TRUE(Pass().ok());
  EXPECT_EQ(ng_->scaling().desired, 1);
}

// §1.9: DeleteNodegroup, the NodegroupDeleted waiter holds the pass until
// the group is gone, then the finalizer goes.
TEST_F(EksControllerTest, DeleteWaitsForTheGroupThenLetsGo) {
  Start(2);
  ASSERT_TRUE(Pass().ok());
  ASSERT_TRUE(HasFinalizer(Imp().meta, kAwsManagedMachinePoolFinalizer));
  InfraMachinePool imp = Imp();
  imp.meta.deletion_timestamp = loop_.Now();
  client_.infra_machine_pools().Add(imp);
  std::vector<Duration> holds;
  ASSERT_TRUE(Pass(&holds).ok());
  EXPECT_EQ(Calls("eks:DeleteNodegroup"), 1u);
  EXPECT_FALSE(holds.empty());
  EXPECT_EQ(ng_->status(), NodegroupStatus::kAbsent);
  EXPECT_TRUE(ng_->Describe().empty());
  EXPECT_FALSE(client_.infra_machine_pools().Has(kEksKey)) << "finalizer removed, object gone";
}

TEST(EksKubelet, TheMachinePoolsVersionWhenItsMinorMatches) {
  EXPECT_EQ(KubeletFor("1.31", "v1.31.4"), "v1.31.4");
  EXPECT_EQ(KubeletFor("1.31", "v1.33.0"), "v1.31.0");
}

}  // namespace
}  // namespace mpsim::eks
