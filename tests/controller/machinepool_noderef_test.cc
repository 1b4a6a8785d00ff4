// TestMachinePoolGetNodeReference and TestMachinePoolPatchNodes
// (machinepool_controller_noderef_test.go), docs/reference/capi-core.md §6.8 and §6.9, plus
// reconcileNodeRefs behaviours no upstream test covers (§2.2, §2.8, D6).
#include <gtest/gtest.h>

#include "controller/machinepool_internal.h"
#include "tests/testing/machinepool_fixtures.h"

namespace mpsim {
namespace {

using fake::Harness;
using fake::MakeCluster;
using fake::MakeNode;
using fake::NodeRef;

// ---- TestMachinePoolGetNodeReference (G1-G12) ----

class MachinePoolGetNodeReference : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const Node& n :
         {MakeNode("node-1", "aws://us-east-1/id-node-1", "True"),
          MakeNode("node-2", "aws://us-west-2/id-node-2", "True"),
          MakeNode("node-3", "aws://us-west-2/id-node-3"),
          MakeNode("gce-node-2", "gce://us-central1/gce-id-node-2", "True"),
          MakeNode("azure-node-4", "azure://westus2/id-node-4", "True"),
          MakeNode("azure-nodepool1-0", "azure://westus2/id-nodepool1/0", "True"),
          MakeNode("azure-nodepool2-0", "azure://westus2/id-nodepool2/0", "True")}) {
      auto node =
          std::make_shared<const Node>(n);  // every Ready condition has a zero lastTransitionTime
      nodes_.InsertOrAssign(node->spec.provider_id, node);  // the key views the held Node
    }
  }
  void Expect(const std::vector<SharedString>& ids, int32_t min_ready,
              const std::vector<std::string>& names, int available, int ready) {
    NodeReferencesResult res;
    ASSERT_TRUE(
        GetNodeReferences(ids, min_ready, nodes_, clock_.Now(), ProviderIDMatch::kExact, &res)
            .ok());
    ASSERT_EQ(res.references.size(), names.size());
    for (size_t i = 0; i < names.size(); ++i) {
      EXPECT_EQ(res.references[i].name, names[i]);
    }
    EXPECT_EQ(res.available, available);
    EXPECT_EQ(res.ready, ready);
  }

  fake::FakeClock clock_;
  NodeRefMap nodes_;
};

TEST_F(MachinePoolGetNodeReference, ValidProviderIdValidAwsNode) {
  Expect({"aws://us-east-1/id-node-1"}, 0, {"node-1"}, 1, 1);
}

// Upstream repeats the name "valid provider id, valid aws node" for this case.
TEST_F(MachinePoolGetNodeReference, ValidProviderIdValidAwsNodeDuplicateName) {
  Expect({"aws://us-west-2/id-node-2"}, 0, {"node-2"}, 1, 1);
}

TEST_F(MachinePoolGetNodeReference, ValidProviderIdValidAwsNodeNodeReadyConditionSetToFalse) {
  Expect({"aws://us-west-2/id-node-3"}, 0, {"node-3"}, 0, 0);
}

TEST_F(MachinePoolGetNodeReference, ValidProviderIdValidGceNode) {
  Expect({"gce://us-central1/gce-id-node-2"}, 0, {"gce-node-2"}, 1, 1);
}

TEST_F(MachinePoolGetNodeReference, ValidProviderIdValidAzureNode) {
  Expect({"azure://westus2/id-node-4"}, 0, {"azure-node-4"}, 1, 1);
}

TEST_F(MachinePoolGetNodeReference, ValidProviderIdsValidAzureAndAwsNodes) {
  Expect({"aws://us-east-1/id-node-1", "azure://westus2/id-node-4"}, 0, {"node-1", "azure-node-4"},
         2, 2);
}

TEST_F(MachinePoolGetNodeReference, ValidProviderIdNoNodeFound) {
  NodeReferencesResult res;
  Status s = GetNodeReferences({"aws:///id-node-100"}, 0, nodes_, clock_.Now(),
                               ProviderIDMatch::kExact, &res);
  EXPECT_TRUE(IsNoAvailableNodes(s));
  EXPECT_EQ(s.message(), "cannot find nodes with matching ProviderIDs in ProviderIDList");
  EXPECT_TRUE(res.references.empty());
}

TEST_F(MachinePoolGetNodeReference, NoProviderIdNoNodeFound) { Expect({}, 0, {}, 0, 0); }

TEST_F(MachinePoolGetNodeReference, ValidProviderIdWithNonUniqueInstanceIdValidAzureNode) {
  Expect({"azure://westus2/id-nodepool1/0"}, 0, {"azure-nodepool1-0"}, 1, 1);
}

TEST_F(MachinePoolGetNodeReference, ValidProviderIdsWithSameInstanceIdsValidAzureNodes) {
  Expect({"azure://westus2/id-nodepool1/0", "azure://westus2/id-nodepool2/0"}, 0,
         {"azure-nodepool1-0", "azure-nodepool2-0"}, 2, 2);
}

TEST_F(MachinePoolGetNodeReference, ValidProviderIdValidAwsNodeWithMinReadySeconds) {
  Expect({"aws://us-east-1/id-node-1"}, 20, {"node-1"}, 0, 1);
}

TEST_F(MachinePoolGetNodeReference, ValidProviderIdValidAwsNodeWithMinReadySecondsEquals0) {
  Expect({"aws://us-east-1/id-node-1"}, 0, {"node-1"}, 1, 1);
}

// ---- TestMachinePoolPatchNodes ----

class MachinePoolPatchNodes : public ::testing::Test {
 protected:
  void SetUp() override {
    const Taint uninitialized{"node.cluster.x-k8s.io/uninitialized", "", "NoSchedule"};
    const Taint other{"some-other-taint", "SomeEffect", ""};
    Node n1 = MakeNode("node-1", "aws://us-east-1/id-node-1");
    n1.spec.taints = {uninitialized};
    Node n2 = MakeNode("node-2", "aws://us-west-2/id-node-2");
    n2.meta.annotations = {{"foo", "bar"}};
    n2.spec.taints = {other, uninitialized};
    Node n3 = MakeNode("node-3", "aws://us-west-2/id-node-3");
    n3.meta.annotations = {{"cluster.x-k8s.io/cluster-name", "cluster-1"},
                           {"cluster.x-k8s.io/cluster-namespace", "my-namespace"},
                           {"cluster.x-k8s.io/owner-kind", "MachinePool"},
                           {"cluster.x-k8s.io/owner-name", "machinepool-3"}};
    n3.spec.taints = {other, uninitialized};
    Node n4 = MakeNode("node-4", "aws://us-west-2/id-node-4");
    n4.meta.annotations = {{"cluster.x-k8s.io/cluster-name", "cluster-1"},
                           {"cluster.x-k8s.io/cluster-namespace", "my-namespace"}};
    n4.spec.taints = {other};
    for (const Node& n : {n1, n2, n3, n4}) h_.client.nodes().Add(n);
  }
  static MachinePool Pool(const std::string& name, const std::string& provider_id) {
    MachinePool mp;
    mp.meta = {.name = name, .ns = "my-namespace"};
    mp.spec.cluster_name = "cluster-1";
    mp.spec.provider_id_list = std::vector<std::string>{provider_id};
    return mp;
  }
  static std::map<std::string, std::string> CapiAnnotations(const std::string& owner) {
    return {{"cluster.x-k8s.io/cluster-name", "cluster-1"},
            {"cluster.x-k8s.io/cluster-namespace", "my-namespace"},
            {"cluster.x-k8s.io/owner-kind", "MachinePool"},
            {"cluster.x-k8s.io/owner-name", owner}};
  }
  const Node& Get(const std::string& name) { return h_.client.nodes().At({"", name}); }

  Harness h_;
};

TEST_F(MachinePoolPatchNodes, NodeWithUninitializedTaintShouldBePatched) {
  ASSERT_TRUE(PatchNodes(&h_.client.nodes(), {NodeRef("node-1")},
                         Pool("machinepool-1", "aws://us-east-1/id-node-1"))
                  .ok());
  EXPECT_EQ(Get("node-1").meta.annotations, CapiAnnotations("machinepool-1"));
  EXPECT_TRUE(Get("node-1").spec.taints.empty());
}

TEST_F(MachinePoolPatchNodes, NodeWithExistingAnnotationsAndTaintsShouldBePatched) {
  ASSERT_TRUE(PatchNodes(&h_.client.nodes(),
                         {NodeRef("node-2"), NodeRef("node-3"), NodeRef("node-4")},
                         Pool("machinepool-2", "aws://us-west-2/id-node-2"))
                  .ok());
  const std::vector<Taint> only_other = {{"some-other-taint", "SomeEffect", ""}};
  auto node2 = CapiAnnotations("machinepool-2");
  node2["foo"] = "bar";
  EXPECT_EQ(Get("node-2").meta.annotations, node2);
  EXPECT_EQ(Get("node-2").spec.taints, only_other);
  EXPECT_EQ(Get("node-3").meta.annotations, CapiAnnotations("machinepool-2"));
  EXPECT_EQ(Get("node-3").spec.taints, only_other);
  EXPECT_EQ(Get("node-4").meta.annotations, CapiAnnotations("machinepool-2"));
  EXPECT_EQ(Get("node-4").spec.taints, only_other);
}

// The patch helper sends nothing for a Node that already has every desired
// annotation, even among keys of its own, and no uninitialized taint.
TEST_F(MachinePoolPatchNodes, UpToDateNodeAmongForeignKeysIsNotPatched) {
  Node n = MakeNode("node-5", "aws://us-west-2/id-node-5");
  n.meta.annotations = CapiAnnotations("machinepool-5");
  n.meta.annotations["a"] = "1";
  n.meta.annotations["cluster.x-k8s.io/cluster-name-extra"] = "2";
  n.meta.annotations["cluster.x-k8s.io/owner"] = "3";
  n.meta.annotations["z"] = "4";
  h_.client.nodes().Add(n);
  ASSERT_TRUE(PatchNodes(&h_.client.nodes(), {NodeRef("node-5")},
                         Pool("machinepool-5", "aws://us-west-2/id-node-5"))
                  .ok());
  EXPECT_EQ(h_.client.nodes().calls(fake::Verb::kPatch), 0);
}

// The keys patchNodes writes are interned: Nodes patched in different passes
// hold one buffer per key, so later passes' change checks compare addresses.
TEST_F(MachinePoolPatchNodes, PatchedKeysAreOneBufferAcrossPasses) {
  ASSERT_TRUE(PatchNodes(&h_.client.nodes(), {NodeRef("node-1")},
                         Pool("machinepool-1", "aws://us-east-1/id-node-1"))
                  .ok());
  ASSERT_TRUE(PatchNodes(&h_.client.nodes(), {NodeRef("node-2")},
                         Pool("machinepool-2", "aws://us-west-2/id-node-2"))
                  .ok());
  for (const char* key : {"cluster.x-k8s.io/cluster-name", "cluster.x-k8s.io/owner-name"}) {
    const auto a = Get("node-1").meta.annotations.find(key);
    const auto b = Get("node-2").meta.annotations.find(key);
    ASSERT_NE(a, Get("node-1").meta.annotations.end());
    ASSERT_NE(b, Get("node-2").meta.annotations.end());
    EXPECT_EQ(a->first.data(), b->first.data()) << key;
  }
}

TEST_F(MachinePoolPatchNodes, OneDifferentOwnerValueIsPatched) {
  Node n = MakeNode("node-6", "aws://us-west-2/id-node-6");
  n.meta.annotations = CapiAnnotations("machinepool-old");
  n.meta.annotations["a"] = "1";
  h_.client.nodes().Add(n);
  ASSERT_TRUE(PatchNodes(&h_.client.nodes(), {NodeRef("node-6")},
                         Pool("machinepool-6", "aws://us-west-2/id-node-6"))
                  .ok());
  EXPECT_EQ(h_.client.nodes().calls(fake::Verb::kPatch), 1);
  EXPECT_EQ(Get("node-6").meta.annotations.at("cluster.x-k8s.io/owner-name"), "machinepool-6");
  EXPECT_EQ(Get("node-6").meta.annotations.at("a"), "1");
}

// ---- reconcileNodeRefs behaviours without an upstream test ----

class MachinePoolReconcileNodeRefs : public ::testing::Test {
 protected:
  explicit MachinePoolReconcileNodeRefs(MachinePoolOptions opts = {}) : h_(opts) {}
  // A pool that was fully reconciled with node-1 (uid-1) for its one providerID.
  void SetUp() override {
    mp_.meta = {.name = "mp", .ns = "default"};
    mp_.spec.cluster_name = "test-cluster";
    mp_.spec.replicas = 1;
    mp_.spec.provider_id_list = std::vector<std::string>{"aws:///zone/i-1"};
    mp_.status.replicas = 1;
    mp_.status.node_refs = {NodeRef("node-1", "uid-1")};
    mp_.status.deprecated =
        MachinePoolDeprecatedStatus{MachinePoolV1Beta1Status{.ready_replicas = 1}};
  }
  Status Run(Result* res) {
    MachinePoolScope scope;
    return Run(res, &scope);
  }
  Status Run(Result* res, MachinePoolScope* scope) {
    *scope = {.cluster = cluster_, .mp = &mp_};
    scope->node_ref_map = GetNodeRefMap(&h_.client.nodes(), h_.deps.opts.provider_id_match);
    return ReconcileNodeRefs(h_.deps, scope, res);
  }
  static Node TaintedNode(const std::string& name, const std::string& pid, const std::string& uid) {
    Node n = MakeNode(name, pid, "True", uid);
    n.spec.taints = {{"node.cluster.x-k8s.io/uninitialized", "", "NoSchedule"}};
    return n;
  }
  std::string ReplicasReady() const {
    return FindCondition(mp_.status.deprecated->v1beta1->conditions, "ReplicasReady")->status;
  }

  Harness h_;
  Cluster cluster_ = MakeCluster("test-cluster");
  MachinePool mp_;
};

// PR #12392: counts and UIDs agree, so nothing is recomputed or patched.
TEST_F(MachinePoolReconcileNodeRefs, EarlyExitWhenNodeRefNamesAndUIDsMatch) {
  h_.client.nodes().Add(TaintedNode("node-1", "aws:///zone/i-1", "uid-1"));
  Result res;
  ASSERT_TRUE(Run(&res).ok());
  EXPECT_EQ(res, Result{});
  EXPECT_EQ(ReplicasReady(), "True");
  EXPECT_EQ(h_.client.nodes().At({"", "node-1"}).spec.taints.size(), 1u);
  EXPECT_TRUE(h_.client.events.empty());
}

// Scaled to zero with no nodeRefs: counts agree, so the early exit is taken.
TEST_F(MachinePoolReconcileNodeRefs, EarlyExitWithNoNodeRefs) {
  mp_.spec.replicas = 0;
  mp_.spec.provider_id_list = std::vector<std::string>{};
  mp_.status.replicas = 0;
  mp_.status.node_refs = {};
  mp_.status.deprecated->v1beta1->ready_replicas = 0;
  MachinePoolScope scope;
  Result res;
  ASSERT_TRUE(Run(&res, &scope).ok());
  EXPECT_EQ(ReplicasReady(), "True");
  EXPECT_TRUE(h_.client.events.empty());
}

// Issue #12388: a Node recreated under the same name gets its new UID stored.
TEST_F(MachinePoolReconcileNodeRefs, RecomputesWhenNodeWasRecreatedWithANewUID) {
  h_.client.nodes().Add(TaintedNode("node-1", "aws:///zone/i-1", "uid-2"));
  Result res;
  ASSERT_TRUE(Run(&res).ok());
  EXPECT_EQ(mp_.status.node_refs, (std::vector<NodeReference>{NodeRef("node-1", "uid-2")}));
  EXPECT_TRUE(h_.client.nodes().At({"", "node-1"}).spec.taints.empty());
  ASSERT_EQ(h_.client.events.size(), 1u);
  EXPECT_EQ(h_.client.events[0].reason, "SuccessfulSetNodeRefs");
  EXPECT_EQ(
      h_.client.events[0].message,
      "[{Kind:Node Namespace: Name:node-1 UID:uid-2 APIVersion:v1 ResourceVersion: FieldPath:}]");
}

TEST_F(MachinePoolReconcileNodeRefs, RequeuesAfter30SecondsWhileNotEveryReplicaIsReady) {
  mp_.spec.replicas = 2;
  mp_.spec.provider_id_list = std::vector<std::string>{"aws:///zone/i-1", "aws:///zone/i-2"};
  mp_.status.replicas = 2;
  h_.client.nodes().Add(MakeNode("node-1", "aws:///zone/i-1", "True", "uid-1"));
  h_.client.nodes().Add(MakeNode("node-2", "aws:///zone/i-2", "False", "uid-2"));
  Result res;
  ASSERT_TRUE(Run(&res).ok());
  EXPECT_EQ(res.requeue_after, 30 * kSecond);
  const MachinePoolV1Beta1Status& v = *mp_.status.deprecated->v1beta1;
  EXPECT_EQ(v.ready_replicas, 1);
  EXPECT_EQ(v.available_replicas, 1);
  EXPECT_EQ(v.unavailable_replicas, 1);
  EXPECT_EQ(mp_.status.node_refs.size(), 2u);
  const Condition* c = FindCondition(v.conditions, "ReplicasReady");
  EXPECT_EQ(c->status, "False");
  EXPECT_EQ(c->reason, "WaitingForReplicasReady");
  EXPECT_EQ(c->severity, "Info");
}

TEST_F(MachinePoolReconcileNodeRefs, WorkloadClusterUnreachableIsAnError) {
  mp_.status.node_refs = {NodeRef("node-1", "stale")};
  h_.client.workload_unavailable = true;
  Result res;
  EXPECT_EQ(Run(&res).code(), Status::Code::kUnavailable);
}

// D6: ClusterCache.Watch is called only once ControlPlaneInitialized is True.
TEST_F(MachinePoolReconcileNodeRefs, WatchesNodesOnlyAfterControlPlaneInitialized) {
  Result res;
  ASSERT_TRUE(Run(&res).ok());
  EXPECT_TRUE(h_.client.watched_clusters.empty());
  cluster_.status.conditions.push_back({.type = "ControlPlaneInitialized", .status = "True"});
  ASSERT_TRUE(Run(&res).ok());
  EXPECT_EQ(h_.client.watched_clusters, (std::set<ObjectKey>{{"default", "test-cluster"}}));
}

// ---- providerID matching up to v1.2.0 (§2.8, PR #4913, CAPZ #1503) ----

class MachinePoolLegacyLastSegmentMatching : public MachinePoolReconcileNodeRefs {
 protected:
  MachinePoolLegacyLastSegmentMatching()
      : MachinePoolReconcileNodeRefs({.provider_id_match = ProviderIDMatch::kLegacyLastSegment}) {}
};

constexpr const char* kVmssA =
    "azure:///subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/"
    "virtualMachineScaleSets/vmss-a/virtualMachines/0";
constexpr const char* kVmssB =
    "azure:///subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/"
    "virtualMachineScaleSets/vmss-b/virtualMachines/0";

// Instance id 0 is reused by both scale sets: pool A is given pool B's Node.
TEST_F(MachinePoolLegacyLastSegmentMatching, NodesOfTwoScaleSetsCollideOnTheInstanceId) {
  mp_.spec.provider_id_list = std::vector<std::string>{kVmssA};
  mp_.status.node_refs.clear();
  h_.client.nodes().Add(MakeNode("vmss-a-0", kVmssA, "True", "uid-a"));
  h_.client.nodes().Add(MakeNode("vmss-b-0", kVmssB, "True", "uid-b"));
  Result res;
  ASSERT_TRUE(Run(&res).ok());
  EXPECT_EQ(mp_.status.node_refs, (std::vector<NodeReference>{NodeRef("vmss-b-0", "uid-b")}));
}

TEST_F(MachinePoolReconcileNodeRefs, ExactMatchingKeepsScaleSetsApart) {
  mp_.spec.provider_id_list = std::vector<std::string>{kVmssA};
  mp_.status.node_refs.clear();
  h_.client.nodes().Add(MakeNode("vmss-a-0", kVmssA, "True", "uid-a"));
  h_.client.nodes().Add(MakeNode("vmss-b-0", kVmssB, "True", "uid-b"));
  Result res;
  ASSERT_TRUE(Run(&res).ok());
  EXPECT_EQ(mp_.status.node_refs, (std::vector<NodeReference>{NodeRef("vmss-a-0", "uid-a")}));
}

// The old parser rejects ids ending in '/', so nothing can match.
TEST_F(MachinePoolLegacyLastSegmentMatching, InvalidProviderIDsNeverMatch) {
  NodeRefMap nodes = {
      {"i-1", std::make_shared<const Node>(MakeNode("node-1", "aws:///zone/i-1", "True"))}};
  NodeReferencesResult res;
  EXPECT_TRUE(IsNoAvailableNodes(GetNodeReferences({"aws:///zone/i-1/"}, 0, nodes, 0,
                                                   ProviderIDMatch::kLegacyLastSegment, &res)));
  EXPECT_TRUE(GetNodeReferences({"aws:///other-zone/i-1"}, 0, nodes, 0,
                                ProviderIDMatch::kLegacyLastSegment, &res)
                  .ok());
  EXPECT_EQ(res.references.size(), 1u);
}

}  // namespace
}  // namespace mpsim
