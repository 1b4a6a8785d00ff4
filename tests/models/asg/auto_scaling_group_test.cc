// The simulated Auto Scaling Group: zone balancing, partial scale-ups that
// recover after InsufficientInstanceCapacity, lifecycle states in the API
// listing, scale-in by the Default policy, deletion, instance refresh and
// its cancellation.
#include "models/asg/auto_scaling_group.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tests/models/asg/asg_fixture.h"

namespace mpsim::asg {
namespace {

TEST_F(AsgTest, LaunchesBalanceZonesAndGoInServiceAfterTheLaunchDelay) {
  AutoScalingGroup g(&loop_, &workload_, &rec_, "mp-0", Options(), 1);
  g.Create(9, "v1.30.0");
  RunTo(5 * kSecond);
  EXPECT_EQ(PerZone(g), (std::map<std::string, int>{{"a", 3}, {"b", 3}, {"c", 3}}));
  for (const Instance* i : g.Describe()) EXPECT_EQ(i->state, State::kPending);
  RunTo(30 * kSecond);
  for (const Instance* i : g.Describe()) EXPECT_EQ(i->state, State::kInService);
}

// Two groups of one run never share an instance ID (and so a providerID):
// EC2 IDs are unique in a region.
TEST_F(AsgTest, GroupsInOneRunDrawDistinctInstanceIds) {
  AsgOptions second = Options();
  second.id_block = 1;
  AutoScalingGroup a(&loop_, &workload_, &rec_, "mp-0", Options(), 1);
  AutoScalingGroup b(&loop_, &workload_, &rec_, "mp-1", second, 1);
  a.Create(3, "v1.30.0");
  b.Create(3, "v1.30.0");
  RunTo(5 * kSecond);
  std::set<std::string> ids;
  for (const Instance* i : a.Describe()) ids.insert(i->id);
  for (const Instance* i : b.Describe()) ids.insert(i->id);
  EXPECT_EQ(ids.size(), 6u);
  EXPECT_EQ(a.Describe().front()->id, "i-00000000000000001");
  EXPECT_EQ(b.Describe().front()->id, "i-00000100000000001");
}

TEST_F(AsgTest, FullZoneSendsLaunchesElsewhere) {
  AsgOptions o = Options();
  o.capacity = {{"a", 1}};
  AutoScalingGroup g(&loop_, &workload_, &rec_, "mp-0", o, 1);
  g.Create(9, "v1.30.0");
  RunTo(5 * kSecond);
  const auto zones = PerZone(g);
  EXPECT_EQ(zones.at("a"), 1);
  EXPECT_EQ(zones.at("b") + zones.at("c"), 8);
  EXPECT_GT(rec_.faults("mp-0"), 0u);
}

TEST_F(AsgTest, PartialScaleUpRecoversAfterInsufficientCapacity) {
  AsgOptions o = Options();
  o.zones = {"a"};
  o.ice_probability = 0.7;
  AutoScalingGroup g(&loop_, &workload_, &rec_, "mp-0", o, 3);
  g.Create(10, "v1.30.0");
  RunTo(5 * kSecond);
  const size_t first = g.size();
  EXPECT_LT(first, 10u) << "the first activity should have failed part-way";
  RunTo(2 * kHour);
  EXPECT_EQ(g.size(), 10u) << "retries every launchRetry should complete the scale-up";
}

TEST_F(AsgTest, TerminatingInstancesStayListedUntilGone) {
  AutoScalingGroup g(&loop_, &workload_, &rec_, "mp-0", Options(), 1);
  g.Create(3, "v1.30.0");
  RunTo(kMinute);
  g.SetDesired(1);
  RunTo(kMinute + 5 * kSecond);
  int terminating = 0;
  for (const Instance* i : g.Describe()) terminating += i->state == State::kTerminating;
  EXPECT_EQ(g.size(), 3u);
  EXPECT_EQ(terminating, 2);
  RunTo(3 * kMinute);
  EXPECT_EQ(g.size(), 1u);
}

TEST_F(AsgTest, DeleteTerminatesEverythingThenTheGroupIsGone) {
  AutoScalingGroup g(&loop_, &workload_, &rec_, "mp-0", Options(), 1);
  g.Create(4, "v1.30.0");
  RunTo(kMinute);
  g.Delete();
  EXPECT_TRUE(g.exists());
  RunTo(3 * kMinute);
  EXPECT_FALSE(g.exists());
  EXPECT_EQ(g.size(), 0u);
}

TEST_F(AsgTest, RefreshReplacesEveryInstanceWithTheNewTemplate) {
  AutoScalingGroup g(&loop_, &workload_, &rec_, "mp-0", Options(), 1);
  g.Create(3, "v1.30.0");
  RunTo(kMinute);
  g.NewLaunchTemplateVersion("v1.31.0");
  ASSERT_TRUE(g.StartInstanceRefresh());
  EXPECT_FALSE(g.StartInstanceRefresh()) << "InstanceRefreshInProgress";
  RunTo(2 * kHour);
  EXPECT_FALSE(g.refreshing());
  ASSERT_EQ(g.size(), 3u);
  for (const Instance* i : g.Describe()) EXPECT_EQ(i->kubelet_version, "v1.31.0");
}

std::vector<std::string> KubeletVersions(AutoScalingGroup& g) {
  std::vector<std::string> out;
  for (const Instance* i : g.Describe()) out.push_back(i->kubelet_version);
  return out;
}

// CancelInstanceRefresh waits for the transitioning instances (docs/reference/providers.md
// §1.2): the refresh's first batch terminates i-1 at 60 s (gone at 90 s) and
// launches i-4 at 61 s (InService at 81 s); cancelled at 70 s, the refresh is
// Cancelling until 90 s and Cancelled one reaction delay (1 s) later. No
// further batch starts; the replacement made stays.
TEST_F(AsgTest, CancelledRefreshIsCancellingUntilNothingTransitionsThenStopsReplacing) {
  AutoScalingGroup g(&loop_, &workload_, &rec_, "mp-0", Options(), 1);
  g.Create(3, "v1.30.0");
  RunTo(kMinute);
  EXPECT_EQ(g.UnfinishedRefresh(), std::nullopt);
  EXPECT_FALSE(g.CancelInstanceRefresh()) << "ActiveInstanceRefreshNotFound";
  g.NewLaunchTemplateVersion("v1.31.0");
  ASSERT_TRUE(g.StartInstanceRefresh());
  EXPECT_EQ(g.UnfinishedRefresh(), RefreshStatus::kInProgress);
  RunTo(70 * kSecond);
  ASSERT_TRUE(g.CancelInstanceRefresh());
  EXPECT_EQ(g.UnfinishedRefresh(), RefreshStatus::kCancelling);
  EXPECT_FALSE(g.CancelInstanceRefresh()) << "only an InProgress refresh is cancelled";
  EXPECT_FALSE(g.StartInstanceRefresh()) << "InstanceRefreshInProgress while Cancelling";
  RunTo(89 * kSecond);  // i-4 is InService, i-1 still Terminating
  EXPECT_EQ(g.UnfinishedRefresh(), RefreshStatus::kCancelling);
  RunTo(90 * kSecond + kSecond / 2);  // i-1 gone at 90 s
  EXPECT_EQ(g.UnfinishedRefresh(), RefreshStatus::kCancelling);
  RunTo(92 * kSecond);
  EXPECT_EQ(g.UnfinishedRefresh(), std::nullopt) << "Cancelled";
  RunTo(2 * kHour);  // i-4's warmup ran out at 381 s: no second batch
  EXPECT_EQ(KubeletVersions(g), (std::vector<std::string>{"v1.30.0", "v1.30.0", "v1.31.0"}));
  // A later refresh starts afresh and replaces every instance.
  g.NewLaunchTemplateVersion("v1.32.0");
  ASSERT_TRUE(g.StartInstanceRefresh());
  RunTo(4 * kHour);
  EXPECT_FALSE(g.refreshing());
  EXPECT_EQ(KubeletVersions(g), (std::vector<std::string>{"v1.32.0", "v1.32.0", "v1.32.0"}));
}

// Cancelled between batches (a replacement warming up, nothing launching or
// terminating): Cancelled after one reaction delay.
TEST_F(AsgTest, RefreshCancelledDuringWarmupEndsAfterTheReactionDelay) {
  AutoScalingGroup g(&loop_, &workload_, &rec_, "mp-0", Options(), 1);
  g.Create(3, "v1.30.0");
  RunTo(kMinute);
  g.NewLaunchTemplateVersion("v1.31.0");
  ASSERT_TRUE(g.StartInstanceRefresh());
  RunTo(200 * kSecond);
  ASSERT_TRUE(g.CancelInstanceRefresh());
  RunTo(200 * kSecond + kSecond / 2);
  EXPECT_EQ(g.UnfinishedRefresh(), RefreshStatus::kCancelling);
  RunTo(202 * kSecond);
  EXPECT_EQ(g.UnfinishedRefresh(), std::nullopt);
}

// Launches past the account's RunInstances tokens fail the activity, which
// retries after launchRetry (60 s here) with the bucket refilled since (up to
// its burst of 10).
TEST_F(AsgTest, EmptyRunInstancesBucketMakesTheScaleUpPartialUntilRefilled) {
  ThrottleLimits l;
  l.enabled = true;
  l.run_instances_burst = 10;
  l.run_instances_refill = 1;
  AwsThrottle throttle(l);
  AutoScalingGroup g(&loop_, &workload_, &rec_, "mp-0", Options(), 1);
  g.set_throttle(&throttle);
  g.Create(100, "v1.30.0");
  RunTo(5 * kSecond);
  EXPECT_EQ(g.size(), 10u);
  EXPECT_EQ(rec_.faults("mp-0"), 1u);
  RunTo(70 * kSecond);  // the retry at 61 s finds a full bucket again
  EXPECT_EQ(g.size(), 20u);
  EXPECT_EQ(rec_.faults("mp-0"), 2u);
  RunTo(9 * kMinute);  // nine retries of ten: the 541 s one completes it
  EXPECT_EQ(g.size(), 90u);
  RunTo(10 * kMinute);
  EXPECT_EQ(g.size(), 100u);
}

}  // namespace
}  // namespace mpsim::asg
