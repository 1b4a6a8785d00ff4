// The simulated Managed Instance Group: stockouts keep instances CREATING
// (retried forever, not listed as members), resize-down victims, the
// PROACTIVE substitute rollout, the per-minute API quota, preemption (scripted,
// random at an hourly probability, and the 24 h cap of preemptible VMs).
#include "models/mig/managed_instance_group.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "models/mig/api_quota.h"
#include "sim/api_server.h"
#include "tests/models/mig/mig_test_options.h"

namespace mpsim::mig {
namespace {

class MigTest : public ::testing::Test {
 protected:
  MigTest() : server_(&loop_), workload_(&loop_, &server_, &rec_, WorkloadOptions{}, 1) {}
  static MigOptions Options() { return ConstantDelayMigOptions(); }
  void RunTo(Duration t) { loop_.Run(t, 10'000'000); }
  static int Count(const std::vector<const ManagedInstance*>& v, Action a) {
    int n = 0;
    for (const ManagedInstance* m : v) n += m->action == a;
    return n;
  }

  EventLoop loop_;
  Recorder rec_;
  ApiServer server_;
  WorkloadCluster workload_;
};

TEST_F(MigTest, StockoutKeepsInstancesCreatingAndOutOfTheMemberList) {
  MigOptions o = Options();
  o.capacity = {{"z", 3}};
  ManagedInstanceGroup g(&loop_, &workload_, &rec_, "mp-0", o, 1);
  g.Insert("z", 5, "v1.30.0");
  RunTo(3 * kHour);  // many retries later
  EXPECT_EQ(g.ListInstances().size(), 3u);
  const auto managed = g.ListManagedInstances();
  ASSERT_EQ(managed.size(), 5u);
  EXPECT_EQ(Count(managed, Action::kCreating), 2);
  for (const ManagedInstance* m : managed) {
    if (m->action == Action::kCreating) {
      EXPECT_EQ(m->last_error, "ZONE_RESOURCE_POOL_EXHAUSTED");
    }
  }
}

TEST_F(MigTest, ResizeDownRemovesInstancesWithoutAVmFirst) {
  MigOptions o = Options();
  o.capacity = {{"z", 2}};
  ManagedInstanceGroup g(&loop_, &workload_, &rec_, "mp-0", o, 1);
  g.Insert("z", 4, "v1.30.0");
  RunTo(kMinute);
  g.Resize(2);
  RunTo(5 * kMinute);
  const auto left = g.ListManagedInstances();
  ASSERT_EQ(left.size(), 2u);
  EXPECT_EQ(Count(left, Action::kCreating), 0) << "the two stuck in CREATING went first";
  EXPECT_EQ(g.ListInstances().size(), 2u);
}

// Preemption (docs/reference/providers.md §3.1, §3.3): STOPPING through the 30 s notice,
// then TERMINATED and still a member under its URL; the group then repairs
// it: RECREATING, and the VM is created again under the same name.
TEST_F(MigTest, PreemptedVmStopsAfterTheNoticeAndIsRecreatedUnderItsName) {
  ManagedInstanceGroup g(&loop_, &workload_, &rec_, "mp-0", Options(), 1);
  g.Insert("z", 1, "v1.30.0");
  RunTo(kMinute);
  ASSERT_EQ(g.ListInstances().size(), 1u);
  const std::string name = g.ListInstances()[0]->name;
  const std::string url = g.ListInstances()[0]->url;
  const Time killed = loop_.Now();  // the loop stands at its last event, not at RunTo's bound
  g.Kill(name);
  RunTo(killed + kPreemptionNotice - kSecond);
  ASSERT_EQ(g.ListInstances().size(), 1u);
  EXPECT_EQ(g.ListInstances()[0]->status, VmStatus::kStopping);
  RunTo(killed + kPreemptionNotice + kSecond / 2);
  ASSERT_EQ(g.ListInstances().size(), 1u) << "a TERMINATED VM is listed (instanceState=ALL)";
  EXPECT_EQ(g.ListInstances()[0]->status, VmStatus::kTerminated);
  EXPECT_EQ(g.ListInstances()[0]->url.str(), url);
  RunTo(killed + kPreemptionNotice + 3 * kSecond / 2);  // repaired after the 1 s reaction
  ASSERT_EQ(g.ListInstances().size(), 1u);
  EXPECT_EQ(g.ListInstances()[0]->status, VmStatus::kProvisioning);
  EXPECT_EQ(g.ListInstances()[0]->action, Action::kCreating);
  RunTo(killed + 2 * kMinute);
  ASSERT_EQ(g.ListInstances().size(), 1u);
  EXPECT_EQ(g.ListInstances()[0]->name, name);
  EXPECT_EQ(g.ListInstances()[0]->status, VmStatus::kRunning);
}

// The instance rows of `field` for one instance, as "from>to", in order.
std::vector<std::string> Rows(const Recorder& rec, const std::string& name,
                              const std::string& field) {
  std::vector<std::string> out;
  for (const TimelineRow& r : rec.rows()) {
    if (r.object_kind == "Instance" && r.object == name && r.field == field) {
      out.push_back(r.from + ">" + r.to);
    }
  }
  return out;
}

TEST_F(MigTest, PreemptionRepairIsRecordedAsRecreating) {
  ManagedInstanceGroup g(&loop_, &workload_, &rec_, "mp-0", Options(), 1);
  g.Insert("z", 1, "v1.30.0");
  RunTo(kMinute);
  const std::string name = g.ListInstances()[0]->name;
  g.Kill(name);
  RunTo(3 * kMinute);
  EXPECT_EQ(Rows(rec_, name, "currentAction"),
            (std::vector<std::string>{">CREATING", "CREATING>NONE", "NONE>RECREATING",
                                      "RECREATING>CREATING", "CREATING>NONE"}));
  EXPECT_EQ(Rows(rec_, name, "state"),
            (std::vector<std::string>{">PROVISIONING", "PROVISIONING>STAGING", "STAGING>RUNNING",
                                      "RUNNING>STOPPING", "STOPPING>TERMINATED", ">PROVISIONING",
                                      "PROVISIONING>STAGING", "STAGING>RUNNING"}));
}

// PROVISIONING -> STAGING -> RUNNING (docs/reference/providers.md §3.1): the one launch
// delay (20 s here, from the create at 1 s) split at stagingFraction.
TEST_F(MigTest, StagingSplitsTheLaunchDelay) {
  MigOptions o = Options();
  o.staging_fraction = 0.25;
  ManagedInstanceGroup g(&loop_, &workload_, &rec_, "mp-0", o, 1);
  g.Insert("z", 1, "v1.30.0");
  RunTo(kSecond + 5 * kSecond - kSecond / 10);
  ASSERT_EQ(g.ListInstances().size(), 1u);
  EXPECT_EQ(g.ListInstances()[0]->status, VmStatus::kProvisioning);
  RunTo(kSecond + 5 * kSecond + kSecond / 10);
  EXPECT_EQ(g.ListInstances()[0]->status, VmStatus::kStaging);
  RunTo(kSecond + 20 * kSecond - kSecond / 10);
  EXPECT_EQ(g.ListInstances()[0]->status, VmStatus::kStaging);
  RunTo(kSecond + 20 * kSecond + kSecond / 10);
  EXPECT_EQ(g.ListInstances()[0]->status, VmStatus::kRunning);
}

TEST_F(MigTest, StagingFractionZeroGoesStraightToRunning) {
  MigOptions o = Options();
  o.staging_fraction = 0;
  ManagedInstanceGroup g(&loop_, &workload_, &rec_, "mp-0", o, 1);
  g.Insert("z", 1, "v1.30.0");
  RunTo(kMinute);
  const std::string name = g.ListInstances()[0]->name;
  EXPECT_EQ(Rows(rec_, name, "state"),
            (std::vector<std::string>{">PROVISIONING", "PROVISIONING>RUNNING"}));
}

// With an autohealing health check the new VM is VERIFYING for the initial
// delay after RUNNING, then NONE (docs/reference/providers.md §3.1); without one, NONE at once.
TEST_F(MigTest, AutohealingKeepsANewVmVerifyingForTheInitialDelay) {
  MigOptions o = Options();
  o.autohealing_initial_delay = DistSpec::Constant(kMinute);
  ManagedInstanceGroup g(&loop_, &workload_, &rec_, "mp-0", o, 1);
  g.Insert("z", 1, "v1.30.0");
  RunTo(21 * kSecond + kSecond / 10);  // RUNNING at 21 s
  ASSERT_EQ(g.ListInstances().size(), 1u);
  EXPECT_EQ(g.ListInstances()[0]->status, VmStatus::kRunning);
  EXPECT_EQ(g.ListInstances()[0]->action, Action::kVerifying);
  RunTo(81 * kSecond - kSecond / 10);
  EXPECT_EQ(g.ListInstances()[0]->action, Action::kVerifying);
  RunTo(81 * kSecond + kSecond / 10);
  EXPECT_EQ(g.ListInstances()[0]->action, Action::kNone);
  const std::string name = g.ListInstances()[0]->name;
  EXPECT_EQ(Rows(rec_, name, "currentAction"),
            (std::vector<std::string>{">CREATING", "CREATING>VERIFYING", "VERIFYING>NONE"}));
}

TEST_F(MigTest, WithoutAHealthCheckANewVmIsNoneAtRunning) {
  ManagedInstanceGroup g(&loop_, &workload_, &rec_, "mp-0", Options(), 1);
  g.Insert("z", 1, "v1.30.0");
  RunTo(21 * kSecond + kSecond / 10);
  ASSERT_EQ(g.ListInstances().size(), 1u);
  EXPECT_EQ(g.ListInstances()[0]->action, Action::kNone);
}

// The Fault rows of `what`, in time order.
std::vector<TimelineRow> Faults(const Recorder& rec, const std::string& what) {
  std::vector<TimelineRow> out;
  for (const TimelineRow& r : rec.rows()) {
    if (r.object_kind == "Fault" && r.to == what) out.push_back(r);
  }
  return out;
}

// GCE stops a preemptible VM 24 h after it started (docs/reference/providers.md §3.3): the
// notice, then TERMINATED, then the MIG recreates it and its clock restarts.
TEST_F(MigTest, PreemptibleVmIsStoppedTwentyFourHoursAfterItStartedAndRecreated) {
  MigOptions o = Options();
  o.preemptible = true;
  ManagedInstanceGroup g(&loop_, &workload_, &rec_, "mp-0", o, 1);
  g.Insert("z", 1, "v1.30.0");
  const Time started = kSecond + 20 * kSecond;  // reaction 1 s, launch 20 s
  RunTo(started + kPreemptibleMaxRuntime - kSecond);
  ASSERT_EQ(g.ListInstances().size(), 1u);
  const std::string name = g.ListInstances()[0]->name;
  EXPECT_EQ(g.ListInstances()[0]->status, VmStatus::kRunning);
  EXPECT_TRUE(Faults(rec_, "instance.preempted24h").empty());
  RunTo(started + kPreemptibleMaxRuntime + kSecond);
  ASSERT_EQ(Faults(rec_, "instance.preempted24h").size(), 1u);
  EXPECT_EQ(Faults(rec_, "instance.preempted24h")[0].time, started + kPreemptibleMaxRuntime);
  EXPECT_EQ(g.ListInstances()[0]->status, VmStatus::kStopping);
  // Stopped after the notice, recreated after 1 s, RUNNING 20 s later.
  const Time again = started + kPreemptibleMaxRuntime + kPreemptionNotice + 21 * kSecond;
  RunTo(again + kSecond);
  ASSERT_EQ(g.ListInstances().size(), 1u);
  EXPECT_EQ(g.ListInstances()[0]->name, name);
  EXPECT_EQ(g.ListInstances()[0]->status, VmStatus::kRunning);
  RunTo(again + kPreemptibleMaxRuntime - kSecond);
  EXPECT_EQ(Faults(rec_, "instance.preempted24h").size(), 1u) << "the old VM's timer is stale";
  RunTo(again + kPreemptibleMaxRuntime + kSecond);
  EXPECT_EQ(Faults(rec_, "instance.preempted24h").size(), 2u);
  EXPECT_EQ(rec_.faults("mp-0"), 2u);
}

TEST_F(MigTest, StandardVmsWithZeroPreemptionProbabilityAreNeverPreempted) {
  ManagedInstanceGroup g(&loop_, &workload_, &rec_, "mp-0", Options(), 1);
  g.Insert("z", 20, "v1.30.0");
  RunTo(30 * 24 * kHour);
  EXPECT_EQ(rec_.faults("mp-0"), 0u);
  ASSERT_EQ(g.ListInstances().size(), 20u);
  for (const ManagedInstance* m : g.ListInstances()) {
    EXPECT_EQ(m->status, VmStatus::kRunning);
    EXPECT_EQ(m->vm_epoch, 1u) << m->name << " was never recreated";
  }
}

// preemptionProbability is per instance-hour: p = 0.5 is a hazard of ln 2 per
// hour, so 100 VMs over 10 h see about 100 * 10 * 0.693 = 693 preemptions
// (less the ~1% of time spent stopped and relaunching); reading it as a rate
// of 0.5 per hour would give about 500. Each one has the 30 s notice.
TEST_F(MigTest, RandomPreemptionFollowsTheHourlyProbabilityWithTheNotice) {
  MigOptions o = Options();
  o.preemption_probability = 0.5;
  ManagedInstanceGroup g(&loop_, &workload_, &rec_, "mp-0", o, 7);
  g.Insert("z", 100, "v1.30.0");
  RunTo(10 * kHour + 21 * kSecond);
  const auto preempted = Faults(rec_, "instance.preempted");
  EXPECT_GT(preempted.size(), 610u);
  EXPECT_LT(preempted.size(), 760u);
  std::map<std::string, std::vector<Time>> terminated;
  for (const TimelineRow& r : rec_.rows()) {
    if (r.object_kind == "Instance" && r.to == "TERMINATED") terminated[r.object].push_back(r.time);
  }
  for (const TimelineRow& f : preempted) {
    if (f.time + kPreemptionNotice > loop_.Now()) continue;
    const auto& t = terminated[f.object];
    EXPECT_NE(std::find(t.begin(), t.end(), f.time + kPreemptionNotice), t.end())
        << f.object << " preempted at " << f.time;
  }
  EXPECT_EQ(g.ListManagedInstances().size(), 100u) << "every preempted VM is recreated";
}

TEST_F(MigTest, ProactiveUpdateWithNoUnavailabilityNeverDropsBelowTarget) {
  MigOptions o = Options();
  o.update.proactive = true;
  o.update.max_unavailable = "0";
  ManagedInstanceGroup g(&loop_, &workload_, &rec_, "mp-0", o, 1);
  g.Insert("z", 3, "v1.30.0");
  RunTo(kMinute);
  const Time start = loop_.Now();  // the last event's time once the queue is empty
  g.SetInstanceTemplate("v1.31.0");
  size_t min_running = 3;
  for (Time t = start; t < start + kHour; t += kSecond) {
    RunTo(t);
    size_t running = 0;
    for (const ManagedInstance* m : g.ListInstances()) running += m->status == VmStatus::kRunning;
    min_running = std::min(min_running, running);
  }
  EXPECT_EQ(min_running, 3u);
  ASSERT_EQ(g.ListManagedInstances().size(), 3u);
  for (const ManagedInstance* m : g.ListManagedInstances())
    EXPECT_EQ(m->kubelet_version, "v1.31.0");
}

TEST_F(MigTest, OpportunisticUpdateLeavesRunningVmsAlone) {
  ManagedInstanceGroup g(&loop_, &workload_, &rec_, "mp-0", Options(), 1);
  g.Insert("z", 2, "v1.30.0");
  RunTo(kMinute);
  g.SetInstanceTemplate("v1.31.0");
  RunTo(kHour);
  for (const ManagedInstance* m : g.ListManagedInstances())
    EXPECT_EQ(m->kubelet_version, "v1.30.0");
}

TEST(ApiQuota, RefusesPastThePerMinuteQuotaAndRefillsAtTheNextMinute) {
  ApiQuota q(2);
  EXPECT_TRUE(q.Take(10 * kSecond));
  EXPECT_TRUE(q.Take(20 * kSecond));
  EXPECT_FALSE(q.Take(59 * kSecond));
  EXPECT_TRUE(q.Take(60 * kSecond));
}

}  // namespace
}  // namespace mpsim::mig
