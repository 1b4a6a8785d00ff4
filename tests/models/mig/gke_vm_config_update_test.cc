// Resource labels, network tags and linuxNodeConfig of a GKE node pool
// (docs/reference/providers.md §3.6.2 "config diff"; CAPG nodepools/reconcile.go
// checkDiffAndPrepareUpdateConfig): each edit is one UpdateNodePool. Labels
// and tags change on the running VMs in place; sysctls and the cgroup mode
// recreate every node by surge steps.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "tests/models/mig/gke_test_fixture.h"

namespace mpsim::mig {
namespace {

class GkeVmConfigTest : public GkeTest {
 protected:
  // Edits `field`, follows CAPG until it is idle and expects one UpdateNodePool,
  // done within the minute's requeue, with no VM replaced.
  void ExpectInPlaceEdit(const char* field, const std::string& text) {
    const std::set<std::string> before = InstanceNames();
    const uint64_t updates = Calls("container:nodePools.update");
    SetSpec({{field, text}});
    const Time edited = loop_.Now();
    EXPECT_EQ(FollowRequeues(), std::vector<Time>{edited + kMinute});
    EXPECT_EQ(Calls("container:nodePools.update"), updates + 1);
    RunTo(loop_.Now() + 5 * kMinute);
    EXPECT_EQ(InstanceNames(), before) << "no VM is recreated";
    EXPECT_EQ(workload_.nodes(), 3u);
  }
  // Edits `field`, follows CAPG until it is idle and expects one UpdateNodePool
  // after which every VM is a new one, never more than 3 + maxSurge at once.
  void ExpectRecreatingEdit(const char* field, const std::string& text) {
    const std::set<std::string> before = InstanceNames();
    SetSpec({{field, text}});
    int32_t most = 0;
    for (Duration d = Pass(); d > 0; d = Pass()) {
      const Time until = loop_.Now() + d;
      for (Time t = loop_.Now() + kSecond; t <= until; t += kSecond) {
        RunTo(t);
        most = std::max(most, Instances());
      }
    }
    RunTo(loop_.Now() + 5 * kMinute);
    EXPECT_EQ(Calls("container:nodePools.update"), 1u);
    EXPECT_EQ(most, 4) << "maxSurge 1, maxUnavailable 0";
    const std::set<std::string> after = InstanceNames();
    ASSERT_EQ(after.size(), 3u);
    for (const std::string& name : after) EXPECT_EQ(before.count(name), 0u) << name;
    EXPECT_EQ(np_->version(), "v1.30.0") << "the version is not what changed";
  }
};

TEST_F(GkeVmConfigTest, AResourceLabelEditIsOneUpdateAppliedInPlace) {
  StartIdle();
  ExpectInPlaceEdit(kResourceLabelsField, "team=a,cost-center=x");
  EXPECT_EQ(np_->config().resource_labels, (ResourceLabels{{"team", "a"}, {"cost-center", "x"}}));
  const std::vector<std::string> pool = {"status=PROVISIONING", "status=RUNNING",
                                         "status=RECONCILING",
                                         "resourceLabels=cost-center=x,team=a", "status=RUNNING"};
  EXPECT_EQ(Rows("NodePool"), pool);
}

TEST_F(GkeVmConfigTest, ANetworkTagEditIsOneUpdateAppliedInPlace) {
  StartIdle();
  ExpectInPlaceEdit(kNetworkTagsField, "web,allow-ssh");
  EXPECT_EQ(np_->config().network_tags, (std::vector<std::string>{"web", "allow-ssh"}));
  EXPECT_EQ(Rows("NodePool").at(3), "networkTags=web,allow-ssh");
}

// CAPG compares the tags as lists (cmp.Equal), so a reordering is an update.
TEST_F(GkeVmConfigTest, NetworkTagsInAnotherOrderAreAnUpdate) {
  MigOptions o = Options();
  o.network_tags = {"a", "b"};
  StartIdle(o);
  EXPECT_EQ(Calls("container:nodePools.update"), 0u) << "the block's tags are there from creation";
  ExpectInPlaceEdit(kNetworkTagsField, "b,a");
  EXPECT_EQ(np_->config().network_tags.front(), "b");
}

// Both in one edit: CAPG sends one UpdateNodePool with both fields.
TEST_F(GkeVmConfigTest, LabelsAndTagsTogetherAreOneUpdate) {
  StartIdle();
  SetSpec({{kResourceLabelsField, "team=a"}, {kNetworkTagsField, "web"}});
  FollowRequeues();
  EXPECT_EQ(Calls("container:nodePools.update"), 1u);
  const std::vector<std::string> rows = Rows("NodePool");
  EXPECT_NE(std::find(rows.begin(), rows.end(), "resourceLabels=team=a"), rows.end());
  EXPECT_NE(std::find(rows.begin(), rows.end(), "networkTags=web"), rows.end());
}

TEST_F(GkeVmConfigTest, ASysctlEditRecreatesEveryNodeBySurgeSteps) {
  StartIdle();
  ExpectRecreatingEdit(kLinuxSysctlsField, "net.core.somaxconn=1024");
  EXPECT_EQ(np_->config().sysctls, (Sysctls{{"net.core.somaxconn", "1024"}}));
  EXPECT_EQ(Rows("NodePool").at(3), "linuxSysctls=net.core.somaxconn=1024");
}

TEST_F(GkeVmConfigTest, ACgroupModeEditRecreatesEveryNodeBySurgeSteps) {
  StartIdle();
  ExpectRecreatingEdit(kLinuxCgroupModeField, "CGROUP_MODE_V2");
  EXPECT_EQ(np_->config().cgroup_mode, "CGROUP_MODE_V2");
  EXPECT_EQ(Rows("NodePool").at(3), "linuxCgroupMode=CGROUP_MODE_V2");
}

// Sysctls are a map in CAPG's SDK config, so their order is no diff.
TEST_F(GkeVmConfigTest, SysctlsInAnotherOrderAreNoUpdate) {
  MigOptions o = Options();
  o.linux_sysctls = {{"net.core.somaxconn", "1024"}, {"vm.max_map_count", "262144"}};
  StartIdle(o);
  SetSpec({{kLinuxSysctlsField, "vm.max_map_count=262144,net.core.somaxconn=1024"}});
  EXPECT_TRUE(FollowRequeues().empty());
  EXPECT_EQ(Calls("container:nodePools.update"), 0u);
}

}  // namespace
}  // namespace mpsim::mig
