// Kubernetes labels and taints of a GKE node pool (docs/reference/providers.md §3.6.2
// "config diff"): CAPG sends every differing field in one UpdateNodePool, and
// GKE sets labels and taints on the running Nodes in place, without
// recreating them, while a version or image-type change recreates them.
#include <gtest/gtest.h>

#include <set>

#include "tests/models/mig/gke_test_fixture.h"

namespace mpsim::mig {
namespace {

class GkeNodeConfigTest : public GkeTest {
 protected:
  // Every Node, by name.
  std::map<std::string, Node> Nodes() {
    std::map<std::string, Node> nodes;
    for (const auto& [key, n] : server_.Store<Node>().objects()) nodes[key.name] = *n;
    return nodes;
  }
  static bool HasTaint(const Node& n, const Taint& t) {
    return std::find(n.spec.taints.begin(), n.spec.taints.end(), t) != n.spec.taints.end();
  }
};

// One UpdateNodePool, a minute's requeue, then done: the 40 s operation sets
// the label on every Node and replaces no VM.
TEST_F(GkeNodeConfigTest, ALabelEditIsAnUpdateNodePoolAppliedInPlace) {
  StartIdle();
  const std::set<std::string> before = InstanceNames();
  SetSpec({{kKubernetesLabelsField, "team=a,tier=batch"}});
  const Time edited = loop_.Now();
  const std::vector<Time> at = FollowRequeues();
  ASSERT_EQ(at, std::vector<Time>{edited + kMinute});
  EXPECT_EQ(Calls("container:nodePools.update"), 1u);
  EXPECT_EQ(InstanceNames(), before) << "no node is recreated";
  for (const auto& [name, n] : Nodes()) {
    EXPECT_EQ(n.meta.labels.at("team"), "a") << name;
    EXPECT_EQ(n.meta.labels.at("tier"), "batch") << name;
  }
  const std::vector<std::string> pool = {"status=PROVISIONING", "status=RUNNING",
                                         "status=RECONCILING", "kubernetesLabels=team=a,tier=batch",
                                         "status=RUNNING"};
  EXPECT_EQ(Rows("NodePool"), pool);
  const std::vector<std::string> updating = {"GKEMachinePoolUpdating=True",
                                             "GKEMachinePoolUpdating=False"};
  EXPECT_EQ(Rows(kGcpManagedMachinePoolKind), updating);
}

// The pool's taints replace its previous ones and leave the others (the
// kubelet's and the CCM's) alone; an empty list removes them.
TEST_F(GkeNodeConfigTest, TaintEditsReplaceOnlyThePoolsOwnTaints) {
  StartIdle();
  const Taint gpu{"dedicated", "gpu", "NoSchedule"};
  SetSpec({{kKubernetesTaintsField, "dedicated=gpu:NoSchedule"}});
  FollowRequeues();
  for (const auto& [name, n] : Nodes()) {
    EXPECT_TRUE(HasTaint(n, gpu)) << name;
    EXPECT_EQ(n.spec.taints.front().key, kUninitializedTaint) << name << " keeps kubeadm's";
  }
  SetSpec({{kKubernetesTaintsField, ""}});
  FollowRequeues();
  EXPECT_EQ(Calls("container:nodePools.update"), 2u);
  for (const auto& [name, n] : Nodes()) {
    EXPECT_FALSE(HasTaint(n, gpu)) << name;
    EXPECT_FALSE(n.spec.taints.empty()) << name << " keeps kubeadm's";
  }
}

// Labels in the block are the pool's from its creation: the kubelets register
// with them, and CAPG sees no diff, so it sends no UpdateNodePool.
TEST_F(GkeNodeConfigTest, BlockLabelsAndTaintsAreThereFromCreation) {
  MigOptions o = Options();
  o.kubernetes_labels = {{"team", "a"}};
  o.kubernetes_taints = {{"spot", "", "NoExecute"}};
  StartIdle(o);
  EXPECT_EQ(Calls("container:nodePools.update"), 0u);
  for (const auto& [name, n] : Nodes()) {
    EXPECT_EQ(n.meta.labels.at("team"), "a") << name;
    EXPECT_TRUE(HasTaint(n, {"spot", "", "NoExecute"})) << name;
  }
}

// CAPG compares taints as lists (cmp.Equal), so the same taints in another
// order are a diff and an UpdateNodePool.
TEST_F(GkeNodeConfigTest, TaintsInAnotherOrderAreAnUpdate) {
  MigOptions o = Options();
  o.kubernetes_taints = {{"a", "", "NoSchedule"}, {"b", "", "NoSchedule"}};
  StartIdle(o);
  SetSpec({{kKubernetesTaintsField, "b:NoSchedule,a:NoSchedule"}});
  FollowRequeues();
  EXPECT_EQ(Calls("container:nodePools.update"), 1u);
  EXPECT_EQ(np_->config().taints.front().key, "b");
}

// A label and a version together are one UpdateNodePool; the surge upgrade
// recreates the nodes, and the new ones register with the label.
TEST_F(GkeNodeConfigTest, ALabelWithAVersionIsOneUpdateAndTheNewNodesCarryIt) {
  StartIdle();
  const std::set<std::string> before = InstanceNames();
  SetSpec({{kKubernetesLabelsField, "team=a"}});
  SetMachinePool([](MachinePool* mp) { mp->spec.template_.spec.version = "v1.31.0"; });
  FollowRequeues();
  RunTo(loop_.Now() + 5 * kMinute);
  EXPECT_EQ(Calls("container:nodePools.update"), 1u);
  EXPECT_EQ(np_->version(), "v1.31.0");
  const std::map<std::string, Node> nodes = Nodes();
  int fresh = 0;
  for (const auto& [name, n] : nodes) {
    EXPECT_EQ(n.meta.labels.at("team"), "a") << name;
    fresh += !before.count(name) && n.status.node_info.kubelet_version == "v1.31.0";
  }
  EXPECT_EQ(fresh, 3) << "every node recreated on the new version";
}

// Nodes that join after an edit (a scale-up) register with the new labels.
TEST_F(GkeNodeConfigTest, NodesAddedLaterRegisterWithTheEditedLabels) {
  StartIdle();
  SetSpec({{kKubernetesLabelsField, "team=a"}});
  FollowRequeues();
  SetMachinePool([](MachinePool* mp) { mp->spec.replicas = 5; });
  FollowRequeues();
  RunTo(loop_.Now() + 5 * kMinute);
  const std::map<std::string, Node> nodes = Nodes();
  ASSERT_EQ(nodes.size(), 5u);
  for (const auto& [name, n] : nodes) EXPECT_EQ(n.meta.labels.at("team"), "a") << name;
}

}  // namespace
}  // namespace mpsim::mig
