// SetupWithManager and the event mappings (docs/reference/capi-core.md §1.2, §2.6); the
// upstream suite has no unit test for nodeToMachinePool or the Cluster watch.
#include <gtest/gtest.h>

#include "controller/machinepool_reconciler.h"
#include "tests/testing/machinepool_fixtures.h"

namespace mpsim {
namespace {

using fake::Harness;
using fake::MakeNode;
using fake::NodeRef;

// Records the map functions the reconciler declares.
class RecordingBuilder : public Builder {
 public:
  void WatchClusters(MapFunc<Cluster> f) override { clusters = std::move(f); }
  void WatchMachinePools(MapFunc<MachinePool> f) override { machine_pools = std::move(f); }
  void WatchBootstrapConfigs(MapFunc<BootstrapConfig> f) override { bootstrap = std::move(f); }
  void WatchInfraMachinePools(MapFunc<InfraMachinePool> f) override { infra = std::move(f); }
  void WatchMachines(MapFunc<Machine> f) override { machines = std::move(f); }
  void WatchInfraMachines(MapFunc<InfraMachine> f) override { infra_machines = std::move(f); }
  void WatchWorkloadNodes(MapFunc<Node> f) override { nodes = std::move(f); }

  MapFunc<Cluster> clusters;
  MapFunc<MachinePool> machine_pools;
  MapFunc<BootstrapConfig> bootstrap;
  MapFunc<InfraMachinePool> infra;
  MapFunc<Machine> machines;
  MapFunc<InfraMachine> infra_machines;
  MapFunc<Node> nodes;
};

template <class T>
WatchEvent<T> Added(const T& obj) {
  return {WatchEvent<T>::Type::kAdded, nullptr, obj};
}
template <class T>
WatchEvent<T> Modified(const T& old, const T& obj) {
  return {WatchEvent<T>::Type::kModified, &old, obj};
}

class MachinePoolWatches : public ::testing::Test {
 protected:
  void SetUp() override {
    reconciler_.Setup(&b_);
    AddPool("mp-a", "default", "c1", {"aws:///z/i-a"}, {NodeRef("node-a")});
    AddPool("mp-b", "default", "c1", {"aws:///z/i-b"}, {});
    AddPool("mp-c", "other", "c1", {}, {});
  }
  void AddPool(const std::string& name, const std::string& ns, const std::string& cluster,
               std::vector<std::string> ids, std::vector<NodeReference> refs) {
    MachinePool mp;
    mp.meta = {.name = name, .ns = ns};
    mp.meta.labels["cluster.x-k8s.io/cluster-name"] = cluster;
    mp.spec.cluster_name = cluster;
    mp.spec.provider_id_list = std::move(ids);
    mp.status.node_refs = std::move(refs);
    h_.client.machine_pools().Add(mp);
  }
  static std::vector<ObjectKey> Keys(const std::vector<Request>& reqs) {
    std::vector<ObjectKey> out;
    for (const Request& r : reqs) out.push_back(r.key);
    return out;
  }

  Harness h_;
  MachinePoolReconciler reconciler_{&h_.client, &h_.clock, {}};
  RecordingBuilder b_;
};

TEST_F(MachinePoolWatches, DeclaresTheUpstreamWatchesOnly) {
  EXPECT_TRUE(b_.clusters && b_.machine_pools && b_.bootstrap && b_.infra && b_.infra_machines &&
              b_.nodes);
  EXPECT_FALSE(b_.machines);  // upstream does not watch Machines
}

TEST_F(MachinePoolWatches, MachinePoolEventsEnqueueThemselves) {
  MachinePool mp;
  mp.meta = {.name = "mp-a", .ns = "default"};
  EXPECT_EQ(Keys(b_.machine_pools(Added(mp))), (std::vector<ObjectKey>{{"default", "mp-a"}}));
}

TEST_F(MachinePoolWatches, ClusterEventsCountOnlyWhenSpecPausedFlips) {
  Cluster before = fake::MakeCluster("c1");
  Cluster after = before;
  after.spec.paused = true;
  EXPECT_EQ(Keys(b_.clusters(Modified(before, after))),
            (std::vector<ObjectKey>{{"default", "mp-a"}, {"default", "mp-b"}}));
  EXPECT_TRUE(b_.clusters(Modified(before, before)).empty());
  EXPECT_TRUE(b_.clusters(Added(after)).empty());
}

TEST_F(MachinePoolWatches, OwnedExternalObjectsMapToTheirMachinePoolUnlessUnchanged) {
  BootstrapConfig cfg = fake::MakeBootstrap("b");
  cfg.meta.owner_references = {{.api_version = "cluster.x-k8s.io/v1beta2",
                                .kind = "MachinePool",
                                .name = "mp-a",
                                .controller = true}};
  cfg.meta.resource_version = 5;
  BootstrapConfig older = cfg;
  older.meta.resource_version = 4;
  EXPECT_EQ(Keys(b_.bootstrap(Modified(older, cfg))),
            (std::vector<ObjectKey>{{"default", "mp-a"}}));
  EXPECT_TRUE(b_.bootstrap(Modified(cfg, cfg)).empty());  // a resync
  InfraMachinePool unowned = fake::MakeInfra("i", std::nullopt);
  EXPECT_TRUE(b_.infra(Added(unowned)).empty());
}

TEST_F(MachinePoolWatches, NodeMapsByNodeRefNameFirst) {
  Node node = MakeNode("node-a", "aws:///z/i-b");
  EXPECT_EQ(Keys(b_.nodes(Added(node))), (std::vector<ObjectKey>{{"default", "mp-a"}}));
}

TEST_F(MachinePoolWatches, NodeMapsByProviderIDWhenNoNodeRefNamesIt) {
  Node node = MakeNode("node-b", "aws:///z/i-b");
  EXPECT_EQ(Keys(b_.nodes(Added(node))), (std::vector<ObjectKey>{{"default", "mp-b"}}));
  EXPECT_TRUE(b_.nodes(Added(MakeNode("node-x", ""))).empty());
  EXPECT_TRUE(b_.nodes(Added(MakeNode("node-x", "aws:///z/i-unknown"))).empty());
}

TEST_F(MachinePoolWatches, NodeMatchingTwoMachinePoolsMapsToNone) {
  AddPool("mp-d", "other", "c2", {"aws:///z/i-b"}, {});
  Node node = MakeNode("node-b", "aws:///z/i-b");
  EXPECT_TRUE(b_.nodes(Added(node)).empty());
  node.meta.annotations = {{"cluster.x-k8s.io/cluster-name", "c2"},
                           {"cluster.x-k8s.io/cluster-namespace", "other"}};
  EXPECT_EQ(Keys(b_.nodes(Added(node))), (std::vector<ObjectKey>{{"other", "mp-d"}}));
}

// Up to v1.2.0 the providerID index held last segments (docs/reference/capi-core.md §2.8):
// a Node whose providerID ends as a listed one maps to that pool, through
// the same cluster filters, and not through the nodeRef name index.
TEST_F(MachinePoolWatches, NodeMapsByLastSegmentUnderTheLegacyMatch) {
  MachinePoolReconciler legacy{
      &h_.client, &h_.clock, {.provider_id_match = ProviderIDMatch::kLegacyLastSegment}};
  RecordingBuilder b;
  legacy.Setup(&b);
  Node node = MakeNode("node-b", "aws:///other-zone/i-b");
  EXPECT_EQ(Keys(b.nodes(Added(node))), (std::vector<ObjectKey>{{"default", "mp-b"}}));
  EXPECT_TRUE(b_.nodes(Added(node)).empty());  // the exact match at HEAD: no pool
  node.meta.annotations = {{"cluster.x-k8s.io/cluster-name", "c2"}};
  EXPECT_TRUE(b.nodes(Added(node)).empty());  // mp-b is in cluster c1
}

TEST_F(MachinePoolWatches, InfraMachinesMapByPoolNameLabel) {
  InfraMachine im;
  im.meta = {.name = "im", .ns = "default"};
  im.meta.labels = {{"cluster.x-k8s.io/cluster-name", "c1"},
                    {"cluster.x-k8s.io/pool-name", "mp-b"}};
  EXPECT_EQ(Keys(b_.infra_machines(Added(im))), (std::vector<ObjectKey>{{"default", "mp-b"}}));
}

}  // namespace
}  // namespace mpsim
