// An instance's way through the group with lifecycle hooks (Pending:Wait,
// Terminating:Wait, their heartbeat timeouts and default results) and with
// spot interruptions (120 s notice, then reclaimed and replaced).
#include <gtest/gtest.h>

#include "tests/models/asg/asg_fixture.h"

namespace mpsim::asg {
namespace {

using Rows = std::vector<std::pair<Time, std::string>>;

LifecycleHook Hook(Duration heartbeat, HookResult result) {
  LifecycleHook h;
  h.configured = true;
  h.heartbeat_timeout = heartbeat;
  h.default_result = result;
  return h;
}

// Reaction 1 s, launch 20 s: Pending at 1 s, running at 21 s.
TEST_F(AsgTest, LaunchHookHoldsABootingInstanceInPendingWaitUntilCompleted) {
  AsgOptions o = Options();
  o.launch_hook = Hook(kHour, HookResult::kAbandon);
  o.launch_hook.complete_after = DistSpec::Constant(40 * kSecond);
  AutoScalingGroup g(&loop_, &workload_, &rec_, "mp-0", o, 1);
  g.Create(1, "v1.30.0");
  RunTo(40 * kSecond);
  const std::string id = g.Describe().front()->id;
  EXPECT_EQ(g.Describe().front()->state, State::kPendingWait);
  // The kubelet registers while the hook waits (node registration 10 s).
  EXPECT_EQ(workload_.server()->Store<Node>().objects().size(), 1u);
  RunTo(2 * kMinute);
  EXPECT_EQ(States(id), (Rows{{1 * kSecond, "Pending"},
                              {21 * kSecond, "Pending:Wait"},
                              {61 * kSecond, "Pending:Proceed"},
                              {61 * kSecond, "InService"}}));
}

TEST_F(AsgTest, LaunchHookTimeoutWithAbandonTerminatesAndReplacesTheInstance) {
  AsgOptions o = Options();
  o.launch_hook = Hook(kMinute, HookResult::kAbandon);
  AutoScalingGroup g(&loop_, &workload_, &rec_, "mp-0", o, 1);
  g.Create(1, "v1.30.0");
  RunTo(85 * kSecond);
  ASSERT_EQ(g.size(), 2u) << "the abandoned instance and its replacement";
  const std::string first = g.Describe()[0]->id;
  const std::string second = g.Describe()[1]->id;
  RunTo(2 * kMinute);
  EXPECT_EQ(States(first), (Rows{{1 * kSecond, "Pending"},
                                 {21 * kSecond, "Pending:Wait"},
                                 {81 * kSecond, "Terminating"},
                                 {111 * kSecond, "Terminated"}}));
  EXPECT_EQ(States(second).front(), (std::pair<Time, std::string>{82 * kSecond, "Pending"}));
}

TEST_F(AsgTest, LaunchHookTimeoutWithContinueGoesInService) {
  AsgOptions o = Options();
  o.launch_hook = Hook(kMinute, HookResult::kContinue);
  AutoScalingGroup g(&loop_, &workload_, &rec_, "mp-0", o, 1);
  g.Create(1, "v1.30.0");
  RunTo(2 * kMinute);
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(States(g.Describe().front()->id).back(),
            (std::pair<Time, std::string>{81 * kSecond, "InService"}));
}

// Scale-in at 60 s: the activity runs at 61 s, the agent completes 45 s
// later, and the delete delay (30 s) follows Terminating:Proceed.
TEST_F(AsgTest, TerminationHookHoldsTheInstanceListedInTerminatingWait) {
  AsgOptions o = Options();
  o.termination_hook = Hook(kHour, HookResult::kAbandon);
  o.termination_hook.complete_after = DistSpec::Constant(45 * kSecond);
  AutoScalingGroup g(&loop_, &workload_, &rec_, "mp-0", o, 1);
  g.Create(1, "v1.30.0");
  RunTo(kMinute);
  const std::string id = g.Describe().front()->id;
  g.SetDesired(0);
  RunTo(2 * kMinute);
  EXPECT_EQ(g.size(), 1u) << "still listed while it waits";
  RunTo(3 * kMinute);
  EXPECT_EQ(g.size(), 0u);
  EXPECT_EQ(States(id), (Rows{{1 * kSecond, "Pending"},
                              {21 * kSecond, "InService"},
                              {61 * kSecond, "Terminating"},
                              {61 * kSecond, "Terminating:Wait"},
                              {106 * kSecond, "Terminating:Proceed"},
                              {136 * kSecond, "Terminated"}}));
}

// DeleteAutoScalingGroup(ForceDelete) drops outstanding lifecycle actions:
// neither a new termination nor one already waiting is held by the hook.
TEST_F(AsgTest, ForceDeleteRunsNoTerminationHook) {
  AsgOptions o = Options();
  o.zones = {"a"};
  o.termination_hook = Hook(kHour, HookResult::kContinue);
  AutoScalingGroup g(&loop_, &workload_, &rec_, "mp-0", o, 1);
  g.Create(2, "v1.30.0");
  RunTo(kMinute);
  g.SetDesired(1);
  RunTo(90 * kSecond);  // one instance waits in Terminating:Wait since 61 s
  g.Delete();
  RunTo(2 * kMinute + 1);
  EXPECT_FALSE(g.exists());
  for (const TimelineRow& r : rec_.rows()) {
    if (r.to == "Terminated") {
      EXPECT_EQ(r.time, 2 * kMinute) << r.object << " from " << r.from;
    }
  }
}

TEST_F(AsgTest, SpotInterruptionReclaimsTheInstance120sAfterItsNoticeAndIsReplaced) {
  AsgOptions o = Options();
  o.spot_interruption_rate = 6;  // one notice every 10 min per instance, on average
  AutoScalingGroup g(&loop_, &workload_, &rec_, "mp-0", o, 1);
  g.Create(1, "v1.30.0");
  RunTo(2 * kHour);
  const TimelineRow* notice = nullptr;
  for (const TimelineRow& r : rec_.rows()) {
    if (r.object_kind == "Fault" && r.to == "SpotInterruption") {
      notice = &r;
      break;
    }
  }
  ASSERT_NE(notice, nullptr);
  const Time t = notice->time;
  const Rows states = States(notice->object);
  ASSERT_EQ(states.size(), 4u);
  EXPECT_EQ(states[1].second, "InService");
  EXPECT_EQ(states[2], (std::pair<Time, std::string>{t + kSpotNotice, "Terminating"}));
  EXPECT_EQ(states[3],
            (std::pair<Time, std::string>{t + kSpotNotice + 30 * kSecond, "Terminated"}));
  // The group launches a replacement once the instance is reclaimed
  // (reaction 1 s), and keeps its one instance.
  bool replaced = false;
  for (const TimelineRow& r : rec_.rows()) {
    replaced |=
        r.object_kind == "Instance" && r.to == "Pending" && r.time == t + kSpotNotice + kSecond;
  }
  EXPECT_TRUE(replaced);
  EXPECT_EQ(g.size(), 1u);
  EXPECT_GT(rec_.faults_by_kind().at("SpotInterruption"), 1u) << "replacements are spot too";
}

TEST_F(AsgTest, NoSpotInterruptionsUnlessARateIsSet) {
  AutoScalingGroup g(&loop_, &workload_, &rec_, "mp-0", Options(), 1);
  g.Create(10, "v1.30.0");
  RunTo(24 * kHour);
  EXPECT_EQ(rec_.faults_by_kind().count("SpotInterruption"), 0u);
  int instance_rows = 0;
  for (const TimelineRow& r : rec_.rows()) instance_rows += r.object_kind == "Instance";
  EXPECT_EQ(instance_rows, 20) << "10 x Pending, InService";
}

}  // namespace
}  // namespace mpsim::asg
