// A GKE node pool's locations (CAPG spec.nodeLocations; nodepools/reconcile.go
// checkDiffAndPrepareUpdateConfig compares them in order, only when set, and
// checkDiffAndPrepareUpdateSize divides the replicas by the pool's location
// count): an edit is one UpdateNodePool that adds a zonal group per new
// location at the per-zone count and deletes the groups of dropped ones.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "tests/models/mig/gke_test_fixture.h"

namespace mpsim::mig {
namespace {

class GkeNodeLocationsTest : public GkeTest {
 protected:
  // A regional pool (three zones) of 6 replicas: 2 nodes in each zone.
  static MigOptions Regional() {
    MigOptions o = Options();
    o.zones = {"a", "b", "c"};
    return o;
  }
  void StartIdle(int32_t replicas, MigOptions o) {
    Start(replicas, std::move(o));
    FollowRequeues();
    RunTo(loop_.Now() + 5 * kMinute);
  }
  // Live (not DELETING) managed instances per group zone.
  std::map<std::string, int32_t> PerZone() {
    std::map<std::string, int32_t> out;
    for (const auto& g : np_->groups()) {
      int32_t& n = out[g->zone()];
      for (const ManagedInstance* mi : g->ListManagedInstances()) {
        n += mi->action != Action::kDeleting;
      }
    }
    return out;
  }
  // The zones of the providerIDs in the GCPManagedMachinePool's list.
  std::map<std::string, int32_t> ProviderIdZones() {
    std::map<std::string, int32_t> out;
    for (const SharedString& id : Imp().spec.provider_id_list.value()) {
      const std::string& s = id.str();
      const size_t project_end = s.find('/', std::string("gce://").size());
      const size_t zone_end = s.find('/', project_end + 1);
      ++out[s.substr(project_end + 1, zone_end - project_end - 1)];
    }
    return out;
  }
};

using Zones = std::map<std::string, int32_t>;

// Unset, the locations are the block's zones: no update, ever.
TEST_F(GkeNodeLocationsTest, UnsetLocationsAreTheZonesAndNeverAnUpdate) {
  StartIdle(6, Regional());
  EXPECT_EQ(np_->locations(), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(PerZone(), (Zones{{"a", 2}, {"b", 2}, {"c", 2}}));
  EXPECT_EQ(Pass(), 0);
  EXPECT_EQ(Calls("container:nodePools.update"), 0u);
}

// GKE keeps the nodes per zone, so a new location gets a group of the pool's
// per-zone count; CAPG's size check then divides 6 replicas by 4 locations
// (1 per zone) and calls SetNodePoolSize to bring the pool back down.
TEST_F(GkeNodeLocationsTest, AddingALocationCreatesAGroupAtThePerZoneCount) {
  StartIdle(6, Regional());
  SetSpec({{kNodeLocationsField, "a,b,c,d"}});
  EXPECT_EQ(Pass(), kMinute);
  EXPECT_EQ(np_->status(), NodePoolStatus::kReconciling);
  RunTo(loop_.Now() + 45 * kSecond);
  EXPECT_EQ(np_->status(), NodePoolStatus::kRunning);
  EXPECT_EQ(np_->locations(), (std::vector<std::string>{"a", "b", "c", "d"}));
  EXPECT_EQ(PerZone(), (Zones{{"a", 2}, {"b", 2}, {"c", 2}, {"d", 2}}));
  EXPECT_EQ(np_->groups().back()->zone(), "d") << "a new group is appended";
  EXPECT_EQ(Calls("container:nodePools.setSize"), 0u);
  FollowRequeues();
  EXPECT_EQ(Calls("container:nodePools.update"), 1u);
  EXPECT_EQ(Calls("container:nodePools.setSize"), 1u);
  EXPECT_EQ(np_->initial_node_count(), 1) << "6 replicas / 4 locations";
  RunTo(loop_.Now() + 5 * kMinute);
  EXPECT_EQ(PerZone(), (Zones{{"a", 1}, {"b", 1}, {"c", 1}, {"d", 1}}));
  EXPECT_EQ(Pass(), 0);
  EXPECT_EQ(ProviderIdZones(), (Zones{{"a", 1}, {"b", 1}, {"c", 1}, {"d", 1}}));
}

// A dropped location's group is deleted with its VMs and their Nodes; the
// update lasts until the group is gone, then 6 / 2 = 3 per zone.
TEST_F(GkeNodeLocationsTest, DroppingALocationDeletesItsGroupsInstances) {
  StartIdle(6, Regional());
  ASSERT_EQ(workload_.nodes(), 6u);
  SetSpec({{kNodeLocationsField, "a,c"}});
  EXPECT_EQ(Pass(), kMinute);
  RunTo(loop_.Now() + 41 * kSecond);
  EXPECT_EQ(PerZone(), (Zones{{"a", 2}, {"c", 2}})) << "b's group left instanceGroupUrls";
  EXPECT_EQ(np_->status(), NodePoolStatus::kReconciling) << "its VMs are still stopping";
  EXPECT_EQ(ProviderIdZones(), (Zones{{"a", 2}, {"b", 2}, {"c", 2}})) << "not yet re-listed";
  EXPECT_EQ(Pass(), kMinute);
  EXPECT_EQ(ProviderIdZones(), (Zones{{"a", 2}, {"c", 2}}));
  RunTo(loop_.Now() + kMinute);
  EXPECT_EQ(np_->status(), NodePoolStatus::kRunning) << "b's group is gone";
  RunTo(loop_.Now() + 2 * kMinute);
  EXPECT_EQ(workload_.nodes(), 4u) << "b's Nodes go with its VMs (node-lifecycle grace period)";
  FollowRequeues();
  EXPECT_EQ(np_->initial_node_count(), 3) << "6 replicas / 2 locations";
  RunTo(loop_.Now() + 5 * kMinute);
  EXPECT_EQ(PerZone(), (Zones{{"a", 3}, {"c", 3}}));
  EXPECT_EQ(workload_.nodes(), 6u);
  const std::vector<std::string> rows = Rows("NodePool");
  EXPECT_NE(std::find(rows.begin(), rows.end(), "nodeLocations=a,c"), rows.end());
}

// CAPG compares the lists with cmp.Equal: the same zones in another order are
// an UpdateNodePool, which moves no VM.
TEST_F(GkeNodeLocationsTest, ReorderedLocationsAreAnUpdate) {
  StartIdle(6, Regional());
  const std::set<std::string> before = InstanceNames();
  SetSpec({{kNodeLocationsField, "c,b,a"}});
  FollowRequeues();
  EXPECT_EQ(Calls("container:nodePools.update"), 1u);
  EXPECT_EQ(Calls("container:nodePools.setSize"), 0u) << "still 3 locations";
  EXPECT_EQ(np_->locations(), (std::vector<std::string>{"c", "b", "a"}));
  RunTo(loop_.Now() + 5 * kMinute);
  EXPECT_EQ(InstanceNames(), before);
  std::vector<std::string> rows = Rows("NodePool");
  rows.erase(rows.begin(), rows.end() - 3);
  EXPECT_EQ(rows, (std::vector<std::string>{"status=RECONCILING", "nodeLocations=c,b,a",
                                            "status=RUNNING"}));
}

// The block's nodeLocations: the pool is created there, and CAPG's create
// divides the replicas by their count (ConvertToSdkNodePool).
TEST_F(GkeNodeLocationsTest, TheBlocksLocationsAreWhereThePoolIsCreated) {
  MigOptions o = Regional();
  o.node_locations = {"b", "d"};
  StartIdle(6, o);
  EXPECT_EQ(np_->initial_node_count(), 3);
  EXPECT_EQ(PerZone(), (Zones{{"b", 3}, {"d", 3}}));
  EXPECT_EQ(ProviderIdZones(), (Zones{{"b", 3}, {"d", 3}}));
  EXPECT_EQ(Calls("container:nodePools.update"), 0u);
}

// A zonal cluster (one zone in the block) with more node locations: CAPG
// divides only for regional clusters, so each location gets all the replicas.
TEST_F(GkeNodeLocationsTest, AZonalClusterDoesNotDivideTheReplicas) {
  MigOptions o = Options();
  o.node_locations = {"z", "y"};
  StartIdle(2, o);
  EXPECT_EQ(np_->initial_node_count(), 2);
  EXPECT_EQ(PerZone(), (Zones{{"y", 2}, {"z", 2}}));
  EXPECT_EQ(Pass(), 0);
}

// GKE runs one operation at a time: a location edit while a SetNodePoolSize
// runs waits for it (FailedPrecondition is never reached: CAPG sees the pool
// RECONCILING and requeues), and the pool itself refuses a second operation.
TEST_F(GkeNodeLocationsTest, ABusyPoolRefusesALocationUpdate) {
  StartIdle(6, Regional());
  SetMachinePool([](MachinePool* mp) { mp->spec.replicas = 9; });
  EXPECT_EQ(Pass(), kMinute);
  NodePoolConfig moved = np_->config();
  moved.locations = {"a", "b"};
  const Status s = np_->Update(moved);
  EXPECT_EQ(s.code(), Status::Code::kConflict);
  EXPECT_NE(s.message().find("FailedPrecondition"), std::string::npos) << s.message();
  SetSpec({{kNodeLocationsField, "a,b"}});
  EXPECT_EQ(Pass(), kMinute) << "RECONCILING: requeue";
  EXPECT_EQ(Calls("container:nodePools.update"), 0u);
  FollowRequeues();
  EXPECT_EQ(Calls("container:nodePools.update"), 1u);
  EXPECT_EQ(np_->locations(), (std::vector<std::string>{"a", "b"}));
}

// UpdateNodePoolRequest.locations left empty (CAPG sends none unless they
// differ) keeps the pool's locations and groups.
TEST_F(GkeNodeLocationsTest, AnUpdateWithoutLocationsKeepsThem) {
  StartIdle(6, Regional());
  NodePoolConfig c = np_->config();
  c.locations.clear();
  c.network_tags = {"web"};
  ASSERT_TRUE(np_->Update(c).ok());
  RunTo(loop_.Now() + kMinute);
  EXPECT_EQ(np_->locations(), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(PerZone(), (Zones{{"a", 2}, {"b", 2}, {"c", 2}}));
  for (const std::string& row : Rows("NodePool")) EXPECT_NE(row.rfind("nodeLocations", 0), 0u);
}

// A zone dropped and added back is a new group: new instance names.
TEST_F(GkeNodeLocationsTest, AZoneAddedBackIsANewGroup) {
  StartIdle(6, Regional());
  const std::set<std::string> first = InstanceNames();
  SetSpec({{kNodeLocationsField, "a,b"}});
  FollowRequeues();
  RunTo(loop_.Now() + 5 * kMinute);
  SetSpec({{kNodeLocationsField, "a,b,c"}});
  FollowRequeues();
  RunTo(loop_.Now() + 5 * kMinute);
  EXPECT_EQ(PerZone(), (Zones{{"a", 2}, {"b", 2}, {"c", 2}}));
  for (const ManagedInstance* mi : np_->groups().back()->ListManagedInstances()) {
    EXPECT_EQ(first.count(mi->name), 0u) << mi->name;
  }
}

}  // namespace
}  // namespace mpsim::mig
