// Test_setReplicas (machinepool_controller_status_test.go) and
// TestHasMachinePoolMachines (machinepool_controller_scope_test.go),
// docs/reference/capi-core.md §6.11, plus the deferred v1beta1 Ready summary (§1.9).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "controller/conditions.h"
#include "controller/machinepool_internal.h"

namespace mpsim {
namespace {

std::shared_ptr<const Node> NodeWithVersion(const std::string& name, const std::string& version) {
  Node n;
  n.meta.name = name;
  n.status.node_info.kubelet_version = version;
  return std::make_shared<const Node>(n);
}

// ---- Test_setReplicas ----

// The scope holds the Machines as the cache lends them.
std::vector<std::shared_ptr<const Machine>> Shared(const std::vector<Machine>& machines) {
  std::vector<std::shared_ptr<const Machine>> out;
  for (const Machine& m : machines) out.push_back(std::make_shared<const Machine>(m));
  return out;
}

TEST(SetReplicas, WithoutMachinePoolMachinesVersionsAreNotSurfaced) {
  MachinePool mp;
  mp.spec.replicas = 3;
  mp.status.replicas = 2;
  SetReplicas(&mp, false, {}, std::nullopt);
  EXPECT_EQ(mp.status.ready_replicas, 2);
  EXPECT_EQ(mp.status.available_replicas, 2);
  EXPECT_EQ(mp.status.up_to_date_replicas, 3);
  EXPECT_FALSE(mp.status.versions.has_value());
}

TEST(SetReplicas, WithoutMachinePoolMachinesVersionsAreAggregatedFromNodeRefs) {
  MachinePool mp;
  mp.status.node_refs = {{.name = "node-1"}, {.name = "node-2"}, {.name = "node-3"}};
  NodeRefMap nodes = {{"provider-id-1", NodeWithVersion("node-1", "v1.31.1")},
                      {"provider-id-2", NodeWithVersion("node-2", "v1.31.1")},
                      {"provider-id-3", NodeWithVersion("node-3", "v1.32.0")}};
  SetReplicas(&mp, false, {}, nodes);
  EXPECT_EQ(mp.status.versions, (std::vector<VersionCount>{{"v1.31.1", 2}, {"v1.32.0", 1}}));
}

TEST(SetReplicas, WithMachinePoolMachinesVersionsAreAggregatedFromMachineSpecVersions) {
  MachinePool mp;
  std::vector<Machine> machines(3);
  machines[0].spec.version = "v1.31.1";
  machines[1].spec.version = "v1.31.1";
  machines[2].spec.version = "v1.32.0";
  SetReplicas(&mp, true, Shared(machines), std::nullopt);
  EXPECT_EQ(mp.status.versions, (std::vector<VersionCount>{{"v1.31.1", 2}, {"v1.32.0", 1}}));
}

// The aggregate is one entry per version text in semver order, so the
// TestVersionsFromMachines "returns sorted versions from machine spec
// versions" (internal/util/version/version_test.go:91-109): a Machine's
// status.nodeInfo.kubeletVersion wins over its spec.version.
TEST(SetReplicas, MachineVersionsPreferTheNodesKubeletVersion) {
  MachinePool mp;
  std::vector<Machine> machines(6);
  machines[1].spec.version = "v1.32.0";
  machines[2].spec.version = "v1.31.1";
  machines[3].spec.version = "v1.31.1";
  machines[4].spec.version = "v1.31.1";
  machines[4].status.node_info = NodeInfo{.kubelet_version = "v1.30.0"};
  machines[5].spec.version = "v1.31.1";
  machines[5].status.node_info = NodeInfo{.kubelet_version = "v1.31.1"};
  SetReplicas(&mp, true, Shared(machines), std::nullopt);
  EXPECT_EQ(mp.status.versions,
            (std::vector<VersionCount>{{"v1.30.0", 1}, {"v1.31.1", 3}, {"v1.32.0", 1}}));
}

// Machines' order (newest first here, versions interleaved, "1.31.1" and
// "v1.31.1" equal in semver) leaves it as it is.
TEST(SetReplicas, MachineVersionsDoNotDependOnTheMachinesOrder) {
  std::vector<Machine> machines(5);
  const char* versions[] = {"v1.32.0", "v1.31.1", "1.31.1", "v1.32.0", "v1.31.1"};
  for (size_t i = 0; i < machines.size(); ++i) {
    machines[i].meta.name = "m-" + std::to_string(i);
    machines[i].meta.creation_timestamp = static_cast<Time>(machines.size() - i);
    machines[i].spec.version = versions[i];
  }
  const std::vector<VersionCount> want = {{"1.31.1", 1}, {"v1.31.1", 2}, {"v1.32.0", 2}};
  MachinePool mp;
  SetReplicas(&mp, true, Shared(machines), std::nullopt);
  EXPECT_EQ(mp.status.versions, want);
  std::reverse(machines.begin(), machines.end());
  SetReplicas(&mp, true, Shared(machines), std::nullopt);
  EXPECT_EQ(mp.status.versions, want);
}

// Not upstream: with MachinePool Machines the counters are condition counts.
TEST(SetReplicas, WithMachinePoolMachinesCountersCountMachineConditions) {
  MachinePool mp;
  std::vector<Machine> machines(2);
  machines[0].status.conditions = {{.type = "Ready", .status = "True"},
                                   {.type = "Available", .status = "True"},
                                   {.type = "UpToDate", .status = "True"}};
  machines[1].status.conditions = {{.type = "Ready", .status = "True"},
                                   {.type = "UpToDate", .status = "False"}};
  SetReplicas(&mp, true, Shared(machines), std::nullopt);
  EXPECT_EQ(mp.status.ready_replicas, 2);
  EXPECT_EQ(mp.status.available_replicas, 1);
  EXPECT_EQ(mp.status.up_to_date_replicas, 1);
  EXPECT_FALSE(mp.status.versions.has_value());
}

// Each counter is IsConditionTrue's answer: the first condition of a type
// decides, whatever follows it, and other types are not counted.
TEST(SetReplicas, MachineCountersTakeTheFirstConditionOfEachType) {
  MachinePool mp;
  std::vector<Machine> machines(2);
  machines[0].status.conditions = {{.type = "Ready", .status = "False"},
                                   {.type = "Ready", .status = "True"},
                                   {.type = "NodeHealthy", .status = "True"},
                                   {.type = "UpToDate", .status = "True"},
                                   {.type = "Available", .status = "True"}};
  machines[1].status.conditions = {{.type = "Available", .status = "True"},
                                   {.type = "Available", .status = "False"},
                                   {.type = "Ready", .status = "True"}};
  SetReplicas(&mp, true, Shared(machines), std::nullopt);
  EXPECT_EQ(mp.status.ready_replicas, 1);
  EXPECT_EQ(mp.status.available_replicas, 2);
  EXPECT_EQ(mp.status.up_to_date_replicas, 1);
}

// Not upstream: versions sort by semver, not by string.
TEST(SetReplicas, VersionsSortBySemver) {
  MachinePool mp;
  mp.status.node_refs = {{.name = "a"}, {.name = "b"}, {.name = "c"}};
  NodeRefMap nodes = {{"1", NodeWithVersion("a", "v1.10.0")},
                      {"2", NodeWithVersion("b", "v1.9.3")},
                      {"3", NodeWithVersion("c", "v1.10.0-rc.1")}};
  SetReplicas(&mp, false, {}, nodes);
  EXPECT_EQ(mp.status.versions,
            (std::vector<VersionCount>{{"v1.9.3", 1}, {"v1.10.0-rc.1", 1}, {"v1.10.0", 1}}));
}

// ---- TestHasMachinePoolMachines ----

TEST(HasMachinePoolMachines, ReturnsErrorWhenInfraMachinePoolIsNil) {
  MachinePoolScope s;
  bool has = true;
  EXPECT_FALSE(HasMachinePoolMachines(s, &has).ok());
  EXPECT_FALSE(has);
}

TEST(HasMachinePoolMachines, ReturnsFalseWhenInfrastructureMachineKindIsAbsent) {
  MachinePoolScope s;
  s.infra_machine_pool = InfraMachinePool{};
  bool has = true;
  ASSERT_TRUE(HasMachinePoolMachines(s, &has).ok());
  EXPECT_FALSE(has);
}

TEST(HasMachinePoolMachines, ReturnsFalseWhenInfrastructureMachineKindIsEmptyString) {
  MachinePoolScope s;
  s.infra_machine_pool = InfraMachinePool{};
  s.infra_machine_pool->status.infrastructure_machine_kind = "";
  bool has = true;
  ASSERT_TRUE(HasMachinePoolMachines(s, &has).ok());
  EXPECT_FALSE(has);
}

TEST(HasMachinePoolMachines, ReturnsTrueWhenInfrastructureMachineKindIsSet) {
  MachinePoolScope s;
  s.infra_machine_pool = InfraMachinePool{};
  s.infra_machine_pool->status.infrastructure_machine_kind = "DockerMachine";
  bool has = false;
  ASSERT_TRUE(HasMachinePoolMachines(s, &has).ok());
  EXPECT_TRUE(has);
}

// ---- v1beta1 Ready summary (not upstream-tested directly) ----

TEST(MachinePoolReadySummary, NoSummarisedConditionSetsNothing) {
  MachinePool mp;
  SetReadySummary(&mp, 0);
  EXPECT_FALSE(mp.status.deprecated.has_value());
}

TEST(MachinePoolReadySummary, WorstGroupWinsAndTakesItsFirstConditionsReason) {
  MachinePool mp;
  MarkV1Beta1True(&mp, "BootstrapReady", 0);
  MarkV1Beta1False(&mp, "ReplicasReady", "WaitingForReplicasReady", "Info", "", 0);
  MarkV1Beta1False(&mp, "InfrastructureReady", "IncorrectExternalRef", "Error", "gone", 0);
  SetReadySummary(&mp, 0);
  const Conditions& cs = mp.status.deprecated->v1beta1->conditions;
  ASSERT_EQ(cs.size(), 4u);
  EXPECT_EQ(cs[0].type, "Ready");  // Ready first, the others alphabetical
  EXPECT_EQ(cs[1].type, "BootstrapReady");
  EXPECT_EQ(cs[0].status, "False");
  EXPECT_EQ(cs[0].reason, "IncorrectExternalRef");
  EXPECT_EQ(cs[0].severity, "Error");
  EXPECT_EQ(cs[0].message, "gone");
}

TEST(MachinePoolReadySummary, AllTrueGivesReadyTrue) {
  MachinePool mp;
  MarkV1Beta1True(&mp, "BootstrapReady", 0);
  MarkV1Beta1True(&mp, "InfrastructureReady", 0);
  SetReadySummary(&mp, 0);
  EXPECT_EQ(FindCondition(mp.status.deprecated->v1beta1->conditions, "Ready")->status, "True");
}

TEST(MachinePoolV1Beta1Conditions, TransitionTimeMovesOnlyWhenTheStateChanges) {
  MachinePool mp;
  MarkV1Beta1False(&mp, "ReplicasReady", "WaitingForReplicasReady", "Info", "", 5 * kSecond);
  MarkV1Beta1False(&mp, "ReplicasReady", "WaitingForReplicasReady", "Info", "", 9 * kSecond);
  EXPECT_EQ(mp.status.deprecated->v1beta1->conditions[0].last_transition_time, 5 * kSecond);
  MarkV1Beta1True(&mp, "ReplicasReady", 12 * kSecond + 300 * kMillisecond);
  EXPECT_EQ(mp.status.deprecated->v1beta1->conditions[0].last_transition_time, 12 * kSecond);
}

}  // namespace
}  // namespace mpsim
