// The simulated workload cluster: a VM that goes away loses its Node after
// the node-monitor grace period, unless it came back under the same name
// first (a MIG recreating a preempted VM), whose kubelet re-registers the
// same Node object; a pool's node labels and taints are registered with and
// changed in place.
#include "sim/workload_cluster.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/api_server.h"

namespace mpsim {
namespace {

class WorkloadClusterTest : public ::testing::Test {
 protected:
  WorkloadClusterTest() : server_(&loop_), workload_(&loop_, &server_, &rec_, Options(), 1) {}
  static WorkloadOptions Options() {
    WorkloadOptions w;
    w.node_registration = DistSpec::Constant(10 * kSecond);
    w.node_ready = DistSpec::Constant(5 * kSecond);
    w.provider_id_by_kubelet = true;
    return w;
  }
  bool GetNode(Node* n) { return server_.Store<Node>().Get({"", "vm-0"}, n).ok(); }
  void RunFor(Duration d) { loop_.Run(loop_.Now() + d, 1'000'000); }

  EventLoop loop_;
  Recorder rec_;
  ApiServer server_;
  WorkloadCluster workload_;
};

TEST_F(WorkloadClusterTest, AVmGoneForGoodLosesItsNodeAfterTheGracePeriod) {
  workload_.InstanceBooted("mp-0", "vm-0", "gce://p/z/vm-0", "v1.30.0");
  RunFor(20 * kSecond);
  Node n;
  ASSERT_TRUE(GetNode(&n));
  workload_.InstanceGone("vm-0");
  RunFor(39 * kSecond);
  EXPECT_TRUE(GetNode(&n));
  RunFor(2 * kSecond);
  EXPECT_FALSE(GetNode(&n));
}

// The Node's providerID is the cloud's own string, not a copy: matching it
// against the providerIDList entry made from that string reads one buffer.
TEST_F(WorkloadClusterTest, TheNodesProviderIdSharesTheCloudsBuffer) {
  const SharedString id("gce://p/z/vm-0-with-a-long-name");
  workload_.InstanceBooted("mp-0", "vm-0", id, "v1.30.0");
  RunFor(20 * kSecond);
  Node n;
  ASSERT_TRUE(GetNode(&n));
  EXPECT_EQ(n.spec.provider_id, id);
  EXPECT_EQ(n.spec.provider_id.data(), id.data());
}

TEST_F(WorkloadClusterTest, AVmRecreatedUnderItsNameKeepsItsNode) {
  workload_.InstanceBooted("mp-0", "vm-0", "gce://p/z/vm-0", "v1.30.0");
  RunFor(20 * kSecond);
  Node before;
  ASSERT_TRUE(GetNode(&before));
  workload_.InstanceGone("vm-0");
  RunFor(5 * kSecond);
  workload_.InstanceBooted("mp-0", "vm-0", "gce://p/z/vm-0", "v1.30.0");
  RunFor(kMinute);  // past the first boot's grace period and the re-registration
  Node after;
  ASSERT_TRUE(GetNode(&after)) << "the first boot's removal must not take the new Node";
  EXPECT_EQ(after.meta.uid, before.meta.uid);
  EXPECT_EQ(after.spec.provider_id, "gce://p/z/vm-0");
  EXPECT_TRUE(IsConditionTrue(after.status.conditions, "Ready"));
}

// The pool's labels and taints are the kubelet's at registration; a later
// call swaps them on the Node in place and leaves everything else alone.
TEST_F(WorkloadClusterTest, PoolNodeConfigIsRegisteredAndChangedInPlace) {
  workload_.SetPoolNodeConfig("mp-0", {{"team", "a"}, {"tier", "web"}},
                              {{"gpu", "true", "NoSchedule"}});
  workload_.InstanceBooted("mp-0", "vm-0", "gce://p/z/vm-0", "v1.30.0");
  RunFor(20 * kSecond);
  Node n;
  ASSERT_TRUE(GetNode(&n));
  EXPECT_EQ(n.meta.labels, (Labels{{"team", "a"}, {"tier", "web"}}));
  ASSERT_EQ(n.spec.taints.size(), 2u);
  EXPECT_EQ(n.spec.taints[0].key, kUninitializedTaint);
  EXPECT_EQ(n.spec.taints[1], (Taint{"gpu", "true", "NoSchedule"}));
  n.meta.labels["someone-else"] = "x";
  ASSERT_TRUE(server_.Store<Node>().Patch(&n).ok());
  const std::string uid = n.meta.uid;

  workload_.SetPoolNodeConfig("mp-0", {{"team", "b"}}, {{"spot", "", "NoExecute"}});
  workload_.SetPoolNodeConfig("mp-1", {{"team", "other"}}, {});
  ASSERT_TRUE(GetNode(&n));
  EXPECT_EQ(n.meta.uid, uid) << "the same Node, not a new one";
  EXPECT_EQ(n.meta.labels, (Labels{{"someone-else", "x"}, {"team", "b"}}));
  ASSERT_EQ(n.spec.taints.size(), 2u);
  EXPECT_EQ(n.spec.taints[0].key, kUninitializedTaint);
  EXPECT_EQ(n.spec.taints[1], (Taint{"spot", "", "NoExecute"}));
}

// Each registration shows the kubelet's version; a re-registration of the
// same Node shows the change from the version it had.
TEST_F(WorkloadClusterTest, KubeletVersionIsARowAtEachRegistration) {
  workload_.InstanceBooted("mp-0", "vm-0", "gce://p/z/vm-0", "v1.30.0");
  RunFor(20 * kSecond);
  workload_.InstanceGone("vm-0");
  RunFor(5 * kSecond);
  workload_.InstanceBooted("mp-0", "vm-0", "gce://p/z/vm-0", "v1.31.0");
  RunFor(20 * kSecond);
  std::vector<std::string> rows;
  for (const TimelineRow& r : rec_.rows()) {
    if (r.field != "kubeletVersion") continue;
    EXPECT_EQ(r.object_kind, "Node");
    EXPECT_EQ(r.object, "vm-0");
    EXPECT_EQ(r.pool, "mp-0");
    rows.push_back(std::to_string(r.time / kSecond) + ":" + r.from + ">" + r.to);
  }
  EXPECT_EQ(rows, (std::vector<std::string>{"10:>v1.30.0", "30:v1.30.0>v1.31.0"}));
}

}  // namespace
}  // namespace mpsim
