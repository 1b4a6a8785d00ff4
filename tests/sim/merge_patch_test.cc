// A merge patch carries only the writer's changes: what others wrote since the
// writer read the object survives (the stale-cache hazard of a whole-object
// write that Cluster API's patch helper avoids).
#include "sim/merge_patch.h"

#include <gtest/gtest.h>

#include "sim/api_server.h"
#include "sim/event_loop.h"

namespace mpsim {
namespace {

Node ReadyNode(const std::string& status) {
  Node n;
  n.meta.name = "n";
  n.spec.provider_id = "aws:///z/i-1";
  n.spec.taints = {{"node.cluster.x-k8s.io/uninitialized", "", "NoSchedule"}};
  n.status.conditions = {{.type = "Ready", .status = status}};
  return n;
}

TEST(MergePatch, StaleNodePatchKeepsTheReadyConditionSetMeanwhile) {
  const Node base = ReadyNode("False");  // what the controller's cache held
  Node mine = base;
  mine.meta.annotations["cluster.x-k8s.io/owner-name"] = "mp-0";
  mine.spec.taints.clear();
  Node cur = ReadyNode("True");  // the kubelet reported Ready since
  ApplyMergePatch(base, mine, &cur);
  EXPECT_EQ(cur.status.conditions[0].status, "True");
  EXPECT_TRUE(cur.spec.taints.empty());
  EXPECT_EQ(cur.meta.annotations.at("cluster.x-k8s.io/owner-name"), "mp-0");
}

TEST(MergePatch, MapsMergePerKeyAndRemovedKeysGo) {
  Node base;
  base.meta.annotations = {{"a", "1"}, {"b", "2"}};
  Node mine = base;
  mine.meta.annotations.erase("a");
  mine.meta.annotations["c"] = "3";
  Node cur = base;
  cur.meta.annotations["d"] = "4";  // written by someone else
  ApplyMergePatch(base, mine, &cur);
  EXPECT_EQ(cur.meta.annotations,
            (std::map<std::string, std::string>{{"b", "2"}, {"c", "3"}, {"d", "4"}}));
}

TEST(MergePatch, ConditionsMergePerType) {
  MachinePool base;
  base.status.conditions = {{.type = "Paused", .status = "False"}};
  MachinePool mine = base;
  mine.status.conditions[0].status = "True";
  MachinePool cur = base;
  cur.status.conditions.push_back({.type = "Other", .status = "True"});
  ApplyMergePatch(base, mine, &cur);
  ASSERT_EQ(cur.status.conditions.size(), 2u);
  EXPECT_EQ(cur.status.conditions[0].status, "True");
  EXPECT_EQ(cur.status.conditions[1].type, "Other");
}

TEST(MergePatch, StatusPatchFromAStaleReadKeepsAScaleWrittenMeanwhile) {
  EventLoop loop;
  ApiServer server(&loop);
  MachinePool mp;
  mp.meta = {.name = "mp-0", .ns = "default"};
  mp.spec.replicas = 1;
  ASSERT_TRUE(server.Store<MachinePool>().Create(&mp).ok());
  const MachinePool base = mp;  // the controller reads replicas 1
  MachinePool scaled = mp;
  scaled.spec.replicas = 10;  // a user scales the pool
  ASSERT_TRUE(server.Store<MachinePool>().Patch(&scaled).ok());
  MachinePool mine = base;
  mine.status.phase = "Running";
  ASSERT_TRUE(server.Store<MachinePool>().Patch(base, &mine).ok());
  MachinePool got;
  ASSERT_TRUE(server.Store<MachinePool>().Get(mp.meta.Key(), &got).ok());
  EXPECT_EQ(got.spec.replicas, 10);
  EXPECT_EQ(got.status.phase, "Running");
  EXPECT_EQ(mine, got);  // the writer gets the server's state back
}

}  // namespace
}  // namespace mpsim
