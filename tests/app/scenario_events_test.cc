// Issue 10's events end to end on the test provider: deleteMachine takes one
// Machine, its InfraMachine and instance, and the pool is made whole again;
// workloadUnreachable holds the MachinePool controller in error backoff until
// the ClusterCache's reconnect wakes it.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tests/testing/run_scenario.h"

namespace mpsim {
namespace {

constexpr const char* kHead = R"(apiVersion: mpsim/v1
kind: Scenario
metadata: {name: events}
spec:
  horizon: 40m
  machinePools:
    - {name: mp-0, replicas: 3, provider: {test: {machinePoolMachines: true}}}
    - {name: mp-1, replicas: 2, provider: {asg: {}}}
  events:
)";

bool RunEvents(const std::string& events, RunOutput* out, std::string* error) {
  return RunScenarioText(std::string(kHead) + events, out, error);
}

// The first row matching kind/object/field/to from `from` on, or -1.
double FirstAt(const RunOutput& out, const std::string& kind, const std::string& object,
               const std::string& field, const std::string& to, Time from = 0) {
  for (const TimelineRow& r : out.recorder.rows()) {
    if (r.time >= from && r.object_kind == kind && (object.empty() || r.object == object) &&
        r.field == field && r.to == to) {
      return ToSeconds(r.time);
    }
  }
  return -1;
}

TEST(DeleteMachineEvent, TheMachineAndItsInstanceGoAndThePoolIsWholeAgain) {
  RunOutput out;
  std::string error;
  ASSERT_TRUE(RunEvents("    - {at: 10m, deleteMachine: {pool: mp-0}}\n", &out, &error)) << error;
  const double deleting = FirstAt(out, "Machine", "mp-0-00000", "deleting", "true");
  const double terminated = FirstAt(out, "Instance", "mp-0-00000", "state", "Terminated");
  const double gone = FirstAt(out, "Machine", "mp-0-00000", "deleted", "true");
  EXPECT_EQ(deleting, 600);
  EXPECT_GT(terminated, deleting);
  EXPECT_GE(gone, terminated);  // the InfraMachine's finalizer waits for the instance
  EXPECT_GT(FirstAt(out, "Machine", "mp-0-00003", "created", "true"), deleting);
  const proto::PoolSummary& p = out.summary.pools(0);
  EXPECT_EQ(p.desired_replicas(), 3);  // spec.replicas is left alone
  EXPECT_EQ(p.ready_replicas(), 3);
  EXPECT_TRUE(p.converged());
}

// An instance the cloud takes away leaves an InfraMachine without instance:
// the provider deletes it through its Machine (CAPZ's step 3).
TEST(DeleteMachineEvent, AKilledInstanceTakesItsMachineWithIt) {
  RunOutput out;
  std::string error;
  ASSERT_TRUE(RunEvents("    - {at: 10m, killInstance: {pool: mp-0}}\n", &out, &error)) << error;
  std::string killed;
  for (const TimelineRow& r : out.recorder.rows()) {
    if (r.object_kind == "Fault" && r.to == "instance.killed") killed = r.object;
  }
  ASSERT_FALSE(killed.empty());
  EXPECT_GE(FirstAt(out, "Machine", killed, "deleting", "true"), 600);
  EXPECT_GE(FirstAt(out, "Machine", killed, "deleted", "true"), 600);
  EXPECT_TRUE(out.summary.pools(0).converged());
}

// Several instances taken at once from among others: the provider's pass
// walks its InfraMachines and the instances side by side, so each gap in the
// instances must still find its own InfraMachine, and each new instance its
// missing one.
TEST(DeleteMachineEvent, SeveralKilledInstancesEachTakeTheirMachine) {
  RunOutput out;
  std::string error;
  std::string yaml = kHead;
  yaml.replace(yaml.find("replicas: 3"), 11, "replicas: 8");
  yaml += "    - {at: 10m, killInstance: {pool: mp-0, count: 3}}\n";
  ASSERT_TRUE(RunScenarioText(yaml, &out, &error)) << error;
  std::vector<std::string> killed;
  for (const TimelineRow& r : out.recorder.rows()) {
    if (r.object_kind == "Fault" && r.to == "instance.killed") killed.push_back(r.object);
  }
  ASSERT_EQ(killed.size(), 3u);
  for (const std::string& name : killed) {
    EXPECT_GE(FirstAt(out, "Machine", name, "deleted", "true"), 600) << name;
  }
  for (const char* name : {"mp-0-00008", "mp-0-00009", "mp-0-00010"}) {
    EXPECT_GT(FirstAt(out, "Machine", name, "created", "true"), 600) << name;
  }
  EXPECT_EQ(out.summary.pools(0).ready_replicas(), 8);
  EXPECT_TRUE(out.summary.pools(0).converged());
}

TEST(DeleteMachineEvent, AMachineThatIsNotThereIsAFaultRow) {
  RunOutput out;
  std::string error;
  ASSERT_TRUE(RunEvents("    - {at: 10m, deleteMachine: {pool: mp-0, machine: mp-0-00042}}\n", &out,
                        &error))
      << error;
  EXPECT_EQ(FirstAt(out, "Fault", "mp-0-00042", "fault", "deleteMachine.notFound"), 600);
}

TEST(DeleteMachineEvent, APoolWithoutMachinesIsRefusedBeforeTheRun) {
  RunOutput out;
  std::string error;
  EXPECT_FALSE(RunEvents("    - {at: 10m, deleteMachine: {pool: mp-1}}\n", &out, &error));
  EXPECT_NE(error.find("spec.events[0].deleteMachine.pool: pool \"mp-1\" runs on provider `asg`"),
            std::string::npos)
      << error;
}

// Cluster API's ClusterCache (docs/reference/capi-core.md §1.14) drops the
// connection at its fifth failed probe, 40 to 50 s into the cut, and makes
// it again at its first attempt after the heal, every 30 s from the
// disconnect; the reconnect, not a long backoff, wakes the pool.
TEST(WorkloadUnreachableEvent, ScaleDownWaitsForTheReconnectAndIsPickedUpAtOnce) {
  RunOutput out;
  std::string error;
  ASSERT_TRUE(
      RunEvents("    - {at: 10m, workloadUnreachable: {for: 10m}}\n"
                "    - {at: 11m, scale: {pool: mp-0, replicas: 1}}\n",
                &out, &error))
      << error;
  EXPECT_EQ(FirstAt(out, "Cluster", "workload", "reachable", "false"), 600);
  EXPECT_EQ(FirstAt(out, "Cluster", "workload", "reachable", "true"), 1200);
  const double down = FirstAt(out, "ClusterCache", "capi/workload", "connected", "false");
  EXPECT_GT(down, 640);
  EXPECT_LE(down, 650);
  const double up = FirstAt(out, "ClusterCache", "capi/workload", "connected", "true");
  EXPECT_GE(up, 1200);
  EXPECT_LT(up, 1230);
  EXPECT_NEAR(std::fmod(up - down, 30), 0, 1e-6);
  const double one_ready = FirstAt(out, "MachinePool", "mp-0", "readyReplicas", "1", 11 * kMinute);
  EXPECT_GE(one_ready, up);
  EXPECT_LT(one_ready, up + 1);
  EXPECT_TRUE(out.summary.pools(0).converged());
}

// setInfraPoolSpec is generic: app/ writes each field into the
// InfraMachinePool's spec.providerSpec, in key order, with a row each; the
// provider's controller is woken as by any spec change (here GKE's, which
// answers an image-type change with UpdateNodePool).
TEST(SetInfraPoolSpecEvent, WritesEachFieldInKeyOrderAndWakesTheProvider) {
  const std::string text = R"(apiVersion: mpsim/v1
kind: Scenario
metadata: {name: edit}
spec:
  horizon: 30m
  machinePools:
    - {name: mp-0, replicas: 2, provider: {mig: {gke: true}}}
  events:
    - at: 10m
      setInfraPoolSpec: {pool: mp-0, fields: {imageType: UBUNTU_CONTAINERD, gkeAutoscaling.maxNodeCount: "9"}}
)";
  RunOutput out;
  std::string error;
  ASSERT_TRUE(RunScenarioText(text, &out, &error)) << error;
  std::vector<std::string> edits;
  for (const TimelineRow& r : out.recorder.rows()) {
    if (r.object_kind == "InfraMachinePool" && r.field.rfind("spec.", 0) == 0) {
      edits.push_back(r.field + "=" + r.to + "@" + std::to_string(ToSeconds(r.time)));
    }
  }
  const std::vector<std::string> want = {"spec.gkeAutoscaling.maxNodeCount=9@600.000000",
                                         "spec.imageType=UBUNTU_CONTAINERD@600.000000"};
  EXPECT_EQ(edits, want);
  EXPECT_GT(FirstAt(out, "NodePool", "mp-0", "imageType", "UBUNTU_CONTAINERD"), 600);
}

}  // namespace
}  // namespace mpsim
