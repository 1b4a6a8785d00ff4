// The pods' scheduler: oldest pod first, first Node in name order that is
// Ready, untainted and has room; a ReplicaSet's deletion order; pods of a
// Node that goes come back pending.
#include "sim/pod_scheduler.h"

#include <gtest/gtest.h>

namespace mpsim {
namespace {

constexpr int64_t kSchedGi = 1024LL * 1024 * 1024;

class PodSchedulerTest : public ::testing::Test {
 protected:
  PodSchedulerTest()
      : server_(&loop_),
        pods_(
            &loop_, &server_, &rec_, [](const std::string&) { return std::string("mp-0"); },
            [](const std::string&) {
              return Resources{4000, 16 * kSchedGi, 110};
            }) {}

  void AddNode(const std::string& name, bool ready, std::vector<Taint> taints = {}) {
    Node n;
    n.meta.name = name;
    n.spec.taints = std::move(taints);
    n.status.conditions.push_back({.type = "Ready", .status = ready ? "True" : "False"});
    server_.Store<Node>().Create(&n);
  }
  void Settle() { loop_.Run(loop_.Now() + kSecond, EventLoop::Limits{}); }

  EventLoop loop_;
  ApiServer server_;
  Recorder rec_;
  PodScheduler pods_;
};

TEST_F(PodSchedulerTest, FirstFitFillsTheFirstNodeInNameOrder) {
  AddNode("node-b", true);
  AddNode("node-a", true);
  pods_.CreatePods(6, {1000, kSchedGi, 0});
  Settle();
  EXPECT_EQ(pods_.nodes().at("node-a").pods.size(), 4u);
  EXPECT_EQ(pods_.nodes().at("node-b").pods.size(), 2u);
  EXPECT_EQ(pods_.stats().scheduled, 6u);
  EXPECT_TRUE(pods_.Pending().empty());
}

// Not Ready, or tainted NoSchedule (Cluster API's uninitialized taint): no pods.
TEST_F(PodSchedulerTest, NodesNotReadyOrTaintedTakeNoPods) {
  AddNode("node-a", false);
  AddNode("node-b", true, {{"node.cluster.x-k8s.io/uninitialized", "", "NoSchedule"}});
  AddNode("node-c", true, {{"x", "", "PreferNoSchedule"}});
  pods_.CreatePods(5, {1000, kSchedGi, 0});
  Settle();
  EXPECT_TRUE(pods_.nodes().at("node-a").pods.empty());
  EXPECT_TRUE(pods_.nodes().at("node-b").pods.empty());
  EXPECT_EQ(pods_.nodes().at("node-c").pods.size(), 4u);
  EXPECT_EQ(pods_.Pending().size(), 1u);
}

TEST_F(PodSchedulerTest, PendingPodsBindWhenANodeTurnsReady) {
  AddNode("node-a", false);
  pods_.CreatePods(2, {1000, kSchedGi, 0});
  Settle();
  ASSERT_EQ(pods_.Pending().size(), 2u);
  loop_.After(30 * kSecond, [&] {
    Node n;
    ASSERT_TRUE(server_.Store<Node>().Get({"", "node-a"}, &n).ok());
    n.status.conditions[0].status = "True";
    server_.Store<Node>().Patch(&n);
  });
  loop_.Run(loop_.Now() + kMinute, EventLoop::Limits{});
  EXPECT_TRUE(pods_.Pending().empty());
  ASSERT_EQ(pods_.stats().latencies.size(), 2u);
  EXPECT_EQ(pods_.stats().latencies[0], 30 * kSecond);
}

// The ReplicaSet deletes pending pods first, then the newest bound ones.
TEST_F(PodSchedulerTest, DeletionTakesPendingPodsFirstThenTheNewest) {
  AddNode("node-a", true);
  pods_.CreatePods(6, {1000, kSchedGi, 0});  // 4 bound (ids 0-3), 2 pending (4, 5)
  Settle();
  pods_.DeletePods(3);
  EXPECT_TRUE(pods_.Pending().empty());
  EXPECT_EQ(pods_.pods().count(3), 0u);
  EXPECT_EQ(pods_.pods().count(2), 1u);
  EXPECT_EQ(pods_.nodes().at("node-a").requested.cpu_milli, 3000);
}

TEST_F(PodSchedulerTest, PodsOfADeletedNodeComeBackPending) {
  AddNode("node-a", true);
  pods_.CreatePods(3, {1000, kSchedGi, 0});
  Settle();
  server_.Store<Node>().Delete({"", "node-a"});
  Settle();
  EXPECT_EQ(pods_.Pending().size(), 3u);
  EXPECT_EQ(pods_.stats().created, 6u);
}

TEST_F(PodSchedulerTest, AFirstFailedPassCallsTheUnschedulableHook) {
  int calls = 0;
  pods_.OnUnschedulable([&] { ++calls; });
  pods_.CreatePods(1, {1000, kSchedGi, 0});
  Settle();
  AddNode("node-a", false);
  Settle();
  EXPECT_EQ(calls, 1);  // the pod was tried once; a later pass adds nothing new
}

// node-a takes pod-0..3 at once; pod-4 and pod-5 wait until node-b comes
// Ready 1 s later: the pool's slowest is pod-4, bound first of the two with
// the same wait.
TEST_F(PodSchedulerTest, KeepsThePoolsSlowestPod) {
  AddNode("node-a", true);
  pods_.CreatePods(6, {1000, kSchedGi, 0});
  loop_.After(kSecond, [this] { AddNode("node-b", true); });
  Settle();
  Settle();
  const PodWait& w = pods_.slowest_waits().by_pool().at("mp-0");
  EXPECT_EQ(PodName(w.pod), "pod-4");
  EXPECT_EQ(w.node, "node-b");
  EXPECT_EQ(w.pending_since, 0);
  EXPECT_EQ(w.bound_at, kSecond);
}

}  // namespace
}  // namespace mpsim
