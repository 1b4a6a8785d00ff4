// CAPG's GCPManagedMachinePool controller against a real simulated GKE node
// pool and a fake API client (docs/reference/providers.md §3.6.2): the 1-minute requeue only
// while GKE is busy, create / update / setSize as operations one at a time,
// providerIDList from every managed instance (CREATING ones included),
// replicas divided among zones, and the surge upgrade's bounds.
#include "models/mig/gcpmanagedmachinepool_reconciler.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "tests/models/mig/gke_test_fixture.h"

namespace mpsim::mig {
namespace {

// Create, then a requeue every minute while PROVISIONING (the 40 s operation),
// then nothing once RUNNING: 1 min, then {}.
TEST_F(GkeTest, RequeuesEveryMinuteWhileProvisioningAndNotOnceRunning) {
  Start(3);
  EXPECT_EQ(Pass(), kMinute);
  EXPECT_EQ(np_->status(), NodePoolStatus::kProvisioning);
  EXPECT_EQ(Calls("container:nodePools.create"), 1u);
  RunTo(30 * kSecond);
  EXPECT_EQ(Pass(), kMinute) << "still PROVISIONING";
  EXPECT_EQ(Imp().status.ready, std::optional<bool>(false));
  RunTo(kMinute);
  EXPECT_EQ(np_->status(), NodePoolStatus::kRunning);
  EXPECT_EQ(Pass(), 0) << "RUNNING and nothing to change: return {}";
  EXPECT_EQ(Imp().status.ready, std::optional<bool>(true));
  EXPECT_EQ(Calls("container:nodePools.create"), 1u);
}

// A version change: UpdateNodePool, then a requeue a minute apart while the
// pool is RECONCILING, until the surge upgrade is done.
TEST_F(GkeTest, AnUpgradeRequeuesAMinuteApartUntilTheSurgeIsDone) {
  Start(3);
  FollowRequeues();
  RunTo(5 * kMinute);
  SetMachinePool([](MachinePool* mp) { mp->spec.template_.spec.version = "v1.31.0"; });
  const Time changed = loop_.Now();
  const std::vector<Time> at = FollowRequeues();
  EXPECT_EQ(Calls("container:nodePools.update"), 1u);
  // The 40 s operation, then three one-node batches (1 s + 20 s to RUNNING,
  // stepped every 5 s): RECONCILING at +1 min, RUNNING by +2 min.
  ASSERT_EQ(at.size(), 2u);
  for (size_t i = 0; i < at.size(); ++i) EXPECT_EQ(at[i], changed + kMinute * (i + 1));
  EXPECT_EQ(np_->status(), NodePoolStatus::kRunning);
  int upgraded = 0;
  for (const ManagedInstance* mi : np_->groups()[0]->ListManagedInstances()) {
    if (mi->action != Action::kDeleting) upgraded += mi->kubelet_version == "v1.31.0";
  }
  EXPECT_EQ(upgraded, 3);
}

TEST_F(GkeTest, AnotherOperationInProgressIsFailedPrecondition) {
  Start(3);
  Pass();
  RunTo(2 * kMinute);
  ASSERT_TRUE(np_->Update({"v1.31.0", np_->image_type(), {}, {}}).ok());
  const Status s = np_->SetSize(5);
  EXPECT_EQ(s.code(), Status::Code::kConflict);
  EXPECT_NE(s.message().find("FailedPrecondition"), std::string::npos);
}

TEST_F(GkeTest, ScalingIsASetSizeOperation) {
  Start(3);
  FollowRequeues();
  SetMachinePool([](MachinePool* mp) { mp->spec.replicas = 5; });
  EXPECT_EQ(Pass(), kMinute);
  EXPECT_EQ(Calls("container:nodePools.setSize"), 1u);
  EXPECT_EQ(np_->status(), NodePoolStatus::kReconciling);
  FollowRequeues();
  RunTo(loop_.Now() + 2 * kMinute);
  Pass();
  EXPECT_EQ(Calls("container:nodePools.setSize"), 1u) << "initialNodeCount tracks the size";
  EXPECT_EQ(Imp().spec.provider_id_list->size(), 5u);
}

// docs/reference/providers.md §3.5: CREATING entries are listed, so the list names VMs that
// do not exist and that no Node will ever carry.
TEST_F(GkeTest, ProviderIdListIncludesInstancesStuckInCreating) {
  MigOptions o = Options();
  o.capacity = {{"z", 2}};
  Start(3, o);
  FollowRequeues();
  RunTo(10 * kMinute);
  Pass();
  ASSERT_TRUE(Imp().spec.provider_id_list.has_value());
  EXPECT_EQ(Imp().spec.provider_id_list->size(), 3u);
  EXPECT_EQ(Imp().status.replicas, std::optional<int32_t>(3));
  EXPECT_EQ(np_->groups()[0]->ListInstances().size(), 2u) << "only two VMs exist";
  EXPECT_EQ(Imp().spec.provider_id_list->front(), "gce://p/z/gke-mp-0-z-0001");
}

// docs/reference/providers.md §3.6.2: 5 replicas over 3 zones is 5 / 3 = 1 node per zone.
TEST_F(GkeTest, RegionalPoolsDivideReplicasAmongZonesRoundingDown) {
  MigOptions o = Options();
  o.zones = {"a", "b", "c"};
  Start(5, o);
  FollowRequeues();
  RunTo(10 * kMinute);
  Pass();
  EXPECT_EQ(np_->initial_node_count(), 1);
  EXPECT_EQ(Imp().spec.provider_id_list->size(), 3u);
  EXPECT_EQ(Calls("compute:instanceGroupManagers.listManagedInstances") % 3, 0u);
}

// The surge bounds hold on the real groups: never above size + maxSurge
// instances, never below size - maxUnavailable RUNNING.
TEST_F(GkeTest, SurgeUpgradeStaysWithinItsBounds) {
  MigOptions o = Options();
  o.upgrade = {2, 1};
  Start(5, o);
  FollowRequeues();
  RunTo(5 * kMinute);
  ASSERT_TRUE(np_->Update({"v1.31.0", np_->image_type(), {}, {}}).ok());
  size_t most = 0, fewest_running = 5;
  const Time from = loop_.Now();
  for (Time t = from; t < from + kHour; t += kSecond) {
    RunTo(t);
    size_t alive = 0, running = 0;
    for (const ManagedInstance* mi : np_->groups()[0]->ListManagedInstances()) {
      if (mi->action == Action::kDeleting) continue;
      ++alive;
      running += mi->status == VmStatus::kRunning;
    }
    most = std::max(most, alive);
    fewest_running = std::min(fewest_running, running);
    if (np_->status() == NodePoolStatus::kRunning) break;
  }
  EXPECT_EQ(np_->status(), NodePoolStatus::kRunning);
  EXPECT_EQ(most, 7u);
  EXPECT_EQ(fewest_running, 4u);
}

// docs/reference/providers.md §3.6.2: with autoscaling enabled CAPG skips the size check, so
// a new replica count calls no SetNodePoolSize and moves no node.
TEST_F(GkeTest, AutoscalingSkipsTheSizeCheck) {
  MigOptions o = Options();
  o.autoscaling = {.enabled = true, .min_node_count = 1, .max_node_count = 5};
  Start(3, o);
  FollowRequeues();
  SetMachinePool([](MachinePool* mp) { mp->spec.replicas = 5; });
  EXPECT_EQ(Pass(), 0) << "nothing to do: return {}";
  RunTo(loop_.Now() + 10 * kMinute);
  EXPECT_EQ(Pass(), 0);
  EXPECT_EQ(Calls("container:nodePools.setSize"), 0u);
  EXPECT_EQ(Instances(), 3);
}

// The pool is created with its autoscaler; GKE keeps each zone within the
// bounds: 3 replicas over 3 zones is 1 per zone, raised to the minimum of 2.
TEST_F(GkeTest, TheAutoscalerKeepsEachZoneWithinItsBounds) {
  MigOptions o = Options();
  o.zones = {"a", "b", "c"};
  o.autoscaling = {.enabled = true, .min_node_count = 2, .max_node_count = 4};
  Start(3, o);
  FollowRequeues();
  RunTo(10 * kMinute);
  EXPECT_EQ(Pass(), 0);
  EXPECT_EQ(np_->initial_node_count(), 1) << "what CAPG asked for";
  EXPECT_EQ(np_->node_count(), 2);
  for (const auto& g : np_->groups()) EXPECT_EQ(g->target_size(), 2);
  EXPECT_EQ(Imp().spec.provider_id_list->size(), 6u);
  EXPECT_EQ(Calls("container:nodePools.setAutoscaling"), 0u) << "created with it: no diff";
}

// An autoscaling diff is one SetNodePoolAutoscaling and a requeue a minute
// apart while the pool is RECONCILING; then the size check stays off.
TEST_F(GkeTest, AnAutoscalingEditIsSetNodePoolAutoscalingThenAMinuteRequeue) {
  Start(3);
  FollowRequeues();
  RunTo(5 * kMinute);
  SetSpec({{kAutoscalingEnabledField, "true"},
           {kAutoscalingMinField, "4"},
           {kAutoscalingMaxField, "6"}});
  const Time edited = loop_.Now();
  EXPECT_EQ(Pass(), kMinute);
  EXPECT_EQ(np_->status(), NodePoolStatus::kReconciling);
  const std::vector<Time> at = FollowRequeues();
  ASSERT_EQ(at.size(), 1u) << "the 40 s operation is done by the first requeue";
  EXPECT_EQ(at[0], edited + kMinute);
  EXPECT_EQ(Calls("container:nodePools.setAutoscaling"), 1u);
  EXPECT_EQ(np_->node_count(), 4);
  SetMachinePool([](MachinePool* mp) { mp->spec.replicas = 1; });
  EXPECT_EQ(Pass(), 0);
  EXPECT_EQ(Calls("container:nodePools.setSize"), 0u);
  const std::vector<std::string> want = {"status=RECONCILING", "autoscaling=4..6",
                                         "status=RUNNING"};
  std::vector<std::string> rows = Rows("NodePool");
  rows.erase(rows.begin(), rows.end() - 3);
  EXPECT_EQ(rows, want);
}

// GKE refuses bounds that cannot hold; CAPG returns the error (backoff).
TEST_F(GkeTest, AutoscalingWithMinimumAboveMaximumIsInvalidArgument) {
  Start(3);
  FollowRequeues();
  RunTo(5 * kMinute);
  SetSpec({{kAutoscalingEnabledField, "true"},
           {kAutoscalingMinField, "5"},
           {kAutoscalingMaxField, "2"}});
  Result res;
  const Status s = r_->Reconcile({kKey}, &res);
  EXPECT_EQ(s.code(), Status::Code::kInvalid);
  EXPECT_NE(s.message().find("InvalidArgument"), std::string::npos) << s.message();
  EXPECT_EQ(np_->status(), NodePoolStatus::kRunning);
}

// docs/reference/providers.md §3.6.2 caveat: if GKE kept initialNodeCount at the created
// size, CAPG's size check would differ after every SetNodePoolSize and call it
// again, a minute apart, for as long as the replicas differ from it.
TEST_F(GkeTest, SetNodePoolSizeRepeatsWhenInitialNodeCountStaysAsCreated) {
  MigOptions o = Options();
  o.initial_node_count_follows_size = false;
  Start(3, o);
  FollowRequeues();
  SetMachinePool([](MachinePool* mp) { mp->spec.replicas = 5; });
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(Pass(), kMinute) << i;
    RunTo(loop_.Now() + kMinute);
  }
  EXPECT_EQ(np_->initial_node_count(), 3);
  EXPECT_EQ(np_->node_count(), 5);
  // The 40 s operation is over by each requeue, and 5 != 3 again: one a minute.
  EXPECT_EQ(Calls("container:nodePools.setSize"), 6u);
  EXPECT_EQ(Instances(), 5) << "the repeats ask for the same size";
}

// A config change other than the version (here the image type) is an
// UpdateNodePool: RECONCILING, GKEMachinePoolUpdating True, a requeue a minute
// apart, and every node recreated from the new template by surge steps.
TEST_F(GkeTest, AnImageTypeChangeIsAnUpdateNodePoolThatRecreatesTheNodes) {
  Start(3);
  FollowRequeues();
  RunTo(5 * kMinute);
  SetSpec({{kImageTypeField, "UBUNTU_CONTAINERD"}});
  const Time edited = loop_.Now();
  const std::vector<Time> at = FollowRequeues();
  ASSERT_EQ(at.size(), 2u);
  for (size_t i = 0; i < at.size(); ++i) EXPECT_EQ(at[i], edited + kMinute * (i + 1));
  EXPECT_EQ(Calls("container:nodePools.update"), 1u);
  EXPECT_EQ(np_->image_type(), "UBUNTU_CONTAINERD");
  EXPECT_EQ(np_->version(), "v1.30.0") << "the version is unchanged";
  const ManagedInstanceGroup& g = *np_->groups()[0];
  int recreated = 0;
  for (const ManagedInstance* mi : g.ListManagedInstances()) {
    if (mi->action != Action::kDeleting) recreated += mi->template_version == g.template_version();
  }
  EXPECT_EQ(recreated, 3);
  const std::vector<std::string> pool = {"status=PROVISIONING", "status=RUNNING",
                                         "status=RECONCILING", "imageType=UBUNTU_CONTAINERD",
                                         "status=RUNNING"};
  EXPECT_EQ(Rows("NodePool"), pool);
  const std::vector<std::string> updating = {"GKEMachinePoolUpdating=True",
                                             "GKEMachinePoolUpdating=False"};
  EXPECT_EQ(Rows(kGcpManagedMachinePoolKind), updating);
}

}  // namespace
}  // namespace mpsim::mig
