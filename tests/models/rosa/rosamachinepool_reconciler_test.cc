// CAPA's ROSAMachinePool controller (docs/reference/aws-managed.md §3). The
// cases of exp/controllers/rosamachinepool_controller_test.go
// (TestRosaMachinePoolReconcile, §5.2) translated to the model's NodePool,
// then the paths upstream does not test: the providerIDList from EC2 (§3.4),
// the upgrade lead time (§3.7) and the rolling replacement (§3.6).
#include "models/rosa/rosamachinepool_reconciler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

#include "tests/testing/provider_controller_test.h"

namespace mpsim::rosa {
namespace {

const ObjectKey kRosaKey{"default", "mp-0"};

RosaOptions RosaTestOptions() {
  RosaOptions o;
  o.zone = "us-east-1a";
  o.launch_delay = DistSpec::Constant(10 * kSecond);
  o.delete_delay = DistSpec::Constant(30 * kSecond);
  o.reaction_delay = DistSpec::Constant(30 * kSecond);
  o.launch_retry = DistSpec::Constant(60 * kSecond);
  o.upgrade_start_delay = DistSpec::Constant(0);
  return o;
}

class RosaControllerTest : public ProviderControllerTest {
 protected:
  void Start(int32_t replicas, RosaOptions o = RosaTestOptions()) {
    np_ = std::make_unique<NodePool>(&loop_, &workload_, &rec_, "mp-0", std::move(o), 1);
    fake::AddPoolPair(&client_, kRosaMachinePoolKind, replicas);
    r_ = std::make_unique<RosaMachinePoolReconciler>(
        &client_, &loop_, &rec_, std::map<std::string, NodePool*>{{"mp-0", np_.get()}});
  }
  Result Pass() {
    Result res;
    EXPECT_TRUE(r_->Reconcile({kRosaKey}, &res).ok());
    return res;
  }
  const InfraMachinePool& Imp() { return client_.infra_machine_pools().At(kRosaKey); }
  size_t Listed() { return Imp().spec.provider_id_list ? Imp().spec.provider_id_list->size() : 0; }
  void SetMachinePool(const std::function<void(MachinePool*)>& f) {
    MachinePool mp = client_.machine_pools().At(kRosaKey);
    f(&mp);
    client_.machine_pools().Add(mp);
  }

  std::unique_ptr<NodePool> np_;
  std::unique_ptr<RosaMachinePoolReconciler> r_;
};

// "create node pool, nodepool doesn't exist" (:243): CreateNodePool once,
// result {}, not ready.
TEST_F(RosaControllerTest, CreateWhenNotFound) {
  Start(1);
  EXPECT_EQ(Pass(), Result{});
  EXPECT_EQ(Calls("ocm:CreateNodePool"), 1u);
  EXPECT_TRUE(np_->exists());
  EXPECT_EQ(Imp().status.ready, std::optional<bool>(false));
}

// "Nodepool exist, but is not ready" (:278): current 0 of 1, RequeueAfter
// 60 s, not ready, replicas 0.
TEST_F(RosaControllerTest, NotReadyRequeuesAfterAMinute) {
  Start(1);
  Pass();
  const Result res = Pass();
  EXPECT_EQ(res.requeue_after, 60 * kSecond);
  EXPECT_EQ(Calls("ocm:CreateNodePool"), 1u);
  EXPECT_EQ(Imp().status.ready, std::optional<bool>(false));
  EXPECT_EQ(Imp().status.replicas, std::optional<int32_t>(0));
}

// "Nodepool is ready" (:317): current 1 of 1, result {}, ready, replicas 1,
// no upgrade since the versions are equal.
TEST_F(RosaControllerTest, ReadyDoesNotRequeue) {
  Start(1);
  Pass();
  RunTo(5 * kMinute);
  EXPECT_EQ(Pass(), Result{});
  EXPECT_EQ(Imp().status.ready, std::optional<bool>(true));
  EXPECT_EQ(Imp().status.replicas, std::optional<int32_t>(1));
  EXPECT_FALSE(np_->upgrade().has_value());
}

// "Create nodepool, replicas are set in MachinePool" (:365): replicas 2.
TEST_F(RosaControllerTest, CreateTakesTheMachinePoolsReplicas) {
  Start(2);
  EXPECT_EQ(Pass(), Result{});
  EXPECT_EQ(np_->replicas(), 2);
}

// "Update nodepool, replicas are updated from MachinePool" (:432).
TEST_F(RosaControllerTest, ReplicasFollowTheMachinePool) {
  Start(1);
  Pass();
  RunTo(5 * kMinute);
  Pass();
  SetMachinePool([](MachinePool* mp) { mp->spec.replicas = 2; });
  Pass();
  EXPECT_EQ(Calls("ocm:UpdateNodePool"), 1u);
  EXPECT_EQ(np_->replicas(), 2);
  RunTo(10 * kMinute);
  EXPECT_EQ(Pass(), Result{});
  EXPECT_EQ(Imp().status.replicas, std::optional<int32_t>(2));
}

// "Reconcile delete" (:607): DeleteNodePool once, and the finalizer goes at
// once, without waiting for the instances (§3.9).
TEST_F(RosaControllerTest, DeleteLetsGoAtOnce) {
  Start(2);
  Pass();
  RunTo(5 * kMinute);
  Pass();
  InfraMachinePool imp = Imp();
  imp.meta.deletion_timestamp = loop_.Now();
  client_.infra_machine_pools().Add(imp);
  Pass();
  EXPECT_EQ(Calls("ocm:DeleteNodePool"), 1u);
  EXPECT_FALSE(client_.infra_machine_pools().Has(kRosaKey));
  EXPECT_EQ(np_->RunningOrPending().size(), 2u) << "the instances outlive the object";
  RunTo(loop_.Now() + kSecond);
  EXPECT_EQ(np_->RunningOrPending().size(), 0u) << "shutting down";
}

// §3.4: the list is EC2 instances running or pending, so it names instances
// before their Nodes exist, as aws:///<az>/<id>.
TEST_F(RosaControllerTest, PendingInstancesAreListedBeforeTheirNodes) {
  Start(3);
  Pass();
  RunTo(35 * kSecond);  // launched (reaction 30 s), running at 40 s
  EXPECT_EQ(Pass().requeue_after, 60 * kSecond);
  EXPECT_EQ(Listed(), 3u);
  EXPECT_EQ(workload_.nodes(), 0u);
  for (const SharedString& id : *Imp().spec.provider_id_list) {
    EXPECT_EQ(id.str().rfind("aws:///us-east-1a/i-", 0), 0u) << id.str();
  }
}

// §3.3: a fixed pool of 0 replicas is never ready, so it requeues every 60 s.
TEST_F(RosaControllerTest, ZeroReplicasIsNeverReady) {
  Start(0);
  Pass();
  RunTo(5 * kMinute);
  EXPECT_EQ(Pass().requeue_after, 60 * kSecond);
}

// §3.7: a version change on a ready pass schedules a policy 6 min ahead; §3.6
// maxSurge 1 / maxUnavailable 0: never more than replicas + 1 instances,
// never fewer than replicas Ready Nodes, and every instance replaced.
TEST_F(RosaControllerTest, UpgradeIsScheduledSixMinutesAheadAndRollsOneByOne) {
  Start(3);
  Pass();
  RunTo(5 * kMinute);
  Pass();
  SetMachinePool([](MachinePool* mp) { mp->spec.template_.spec.version = "v1.31.0"; });
  const Time asked = loop_.Now();
  EXPECT_EQ(Pass(), Result{});
  ASSERT_TRUE(np_->upgrade().has_value());
  EXPECT_EQ(np_->upgrade()->next_run, asked + 6 * kMinute);
  EXPECT_EQ(np_->version(), "v1.30.0");
  size_t most = 0;
  for (Time t = asked; t < asked + 2 * kHour && np_->version() != "v1.31.0"; t += kSecond) {
    RunTo(t);
    most = std::max(most, np_->RunningOrPending().size());
    if (t >= asked + 6 * kMinute + 5 * kSecond) {
      EXPECT_GE(np_->CurrentReplicas(), 3) << "maxUnavailable 0 at " << t;
    }
  }
  EXPECT_EQ(np_->version(), "v1.31.0");
  EXPECT_EQ(most, 4u) << "maxSurge 1";
  RunTo(loop_.Now() + 2 * kMinute);
  ASSERT_EQ(np_->RunningOrPending().size(), 3u);
}

// §3.7: a scheduled policy for another version is an error (backoff).
TEST_F(RosaControllerTest, PolicyForAnotherVersionIsAnError) {
  Start(1);
  Pass();
  RunTo(5 * kMinute);
  Pass();
  SetMachinePool([](MachinePool* mp) { mp->spec.template_.spec.version = "v1.31.0"; });
  Pass();
  SetMachinePool([](MachinePool* mp) { mp->spec.template_.spec.version = "v1.32.0"; });
  Result res;
  const Status s = r_->Reconcile({kRosaKey}, &res);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("v1.31.0"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace mpsim::rosa
