// What --explain says of the pods' waits: the facts of pod_waits.json worked
// out from hand-built rows (which scale-up caused a node, a node already
// Ready, no pod bound, pods left pending), their sentences, and the burst
// scenario of issue 52 end to end in this process.
#include "app/report/pod_wait_facts.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "app/report/explain.h"
#include "app/world.h"
#include "scenario/loader.h"

namespace mpsim {
namespace {

constexpr Time PodWaitS = kSecond;

Time PodWaitAt(double s) { return static_cast<Time>(s * PodWaitS); }

std::string PodWaitText(const proto::PodWaits& w, const std::string& pool) {
  std::ostringstream os;
  PrintPodWaits(os, w, pool);
  return os.str();
}

// Pool mp-0: a scale-up from 1 to 3 at 10 s launches n-1 at 11 s; a second
// scale-up at 50 s comes after that launch and is not its cause. n-1 turns
// Ready at 40 s, falls NotReady and is Ready again at 70 s, after the binding
// at 60 s: the Ready that counts is 40 s.
Recorder PodWaitRows() {
  Recorder rec;
  rec.Decision(
      {PodWaitAt(10), "Autoscaler", "mp-0", "scaleUp: 5 of 5 pending pods", "1", "3", "mp-0"});
  rec.Change(PodWaitAt(10), "MachinePool", "mp-0", "spec.replicas", "1", "3", "mp-0");
  rec.Change(PodWaitAt(11), "Instance", "n-1", "state", "", "Launching", "mp-0");
  rec.Change(PodWaitAt(25), "Instance", "n-1", "state", "Launching", "Running", "mp-0");
  rec.Change(PodWaitAt(40), "Node", "n-1", "Ready", "False", "True", "mp-0");
  rec.Decision(
      {PodWaitAt(50), "Autoscaler", "mp-0", "scaleUp: 2 of 2 pending pods", "3", "4", "mp-0"});
  rec.Change(PodWaitAt(55), "Node", "n-1", "Ready", "True", "False", "mp-0");
  rec.Change(PodWaitAt(70), "Node", "n-1", "Ready", "False", "True", "mp-0");
  return rec;
}

TEST(PodWaitFacts, NamesTheScaleUpBeforeTheLaunchAndTheReadyBeforeTheBinding) {
  const Recorder rec = PodWaitRows();
  SlowestPodWaits waits;
  waits.Bound("mp-0", {7, PodWaitAt(5), PodWaitAt(60), "n-1"});
  const proto::PodWaits w = PodWaitFacts({"mp-0", "mp-1"}, waits, {}, rec);
  ASSERT_EQ(w.pools_size(), 2);
  const proto::PoolPodWait& p = w.pools(0);
  EXPECT_EQ(p.pool(), "mp-0");
  EXPECT_EQ(p.pod(), "pod-7");
  EXPECT_EQ(p.node(), "n-1");
  EXPECT_DOUBLE_EQ(p.wait_s(), 55.0);
  EXPECT_DOUBLE_EQ(p.launched_at_s(), 11.0);
  EXPECT_DOUBLE_EQ(p.ready_at_s(), 40.0);
  ASSERT_TRUE(p.has_scale_up());
  EXPECT_DOUBLE_EQ(p.scale_up().time_s(), 10.0);
  EXPECT_EQ(p.scale_up().what(), "scaleUp: 5 of 5 pending pods");
  EXPECT_EQ(PodWaitText(w, "mp-0"),
            "slowest pod on pool mp-0: pod-7 waited 55.0s: pending from 5.0s, bound at 60.0s to "
            "node n-1, launched at 11.0s (the autoscaler's scale-up of mp-0 from 1 to 3 at 10.0s: "
            "5 of 5 pending pods) and Ready at 40.0s\n");
  EXPECT_EQ(w.pools(1).pool(), "mp-1");
  EXPECT_TRUE(w.pools(1).pod().empty());
  EXPECT_EQ(PodWaitText(w, "mp-1"), "no pod was bound to a node of pool mp-1\n");
  EXPECT_EQ(PodWaitText(w, "mp-9"), "");
}

// A pod created at 45 s, after n-1 was Ready (40 s), and bound at 60 s: the
// node was there before it; launched at 11 s, before any scale-up when the
// rows have none.
TEST(PodWaitFacts, ANodeReadyBeforeThePodAndNoScaleUp) {
  Recorder rec;
  rec.Change(PodWaitAt(11), "Instance", "n-1", "state", "", "Launching", "mp-0");
  rec.Change(PodWaitAt(40), "Node", "n-1", "Ready", "False", "True", "mp-0");
  SlowestPodWaits waits;
  waits.Bound("mp-0", {3, PodWaitAt(45), PodWaitAt(60), "n-1"});
  const proto::PodWaits w = PodWaitFacts({"mp-0"}, waits, {2, PodWaitAt(100)}, rec);
  EXPECT_FALSE(w.pools(0).has_scale_up());
  EXPECT_EQ(w.pending_at_end(), 2u);
  EXPECT_EQ(PodWaitText(w, "mp-0"),
            "slowest pod on pool mp-0: pod-3 waited 15.0s: pending from 45.0s, bound at 60.0s to "
            "node n-1, launched at 11.0s (before any scale-up of mp-0 by the autoscaler), already "
            "Ready at 40.0s, before the pod was pending\n"
            "2 pods still pending at the end of the run, the oldest since 100.0s\n");
}

// n-1 is Ready at 40 s but keeps Cluster API's uninitialized taint until
// mp-0's nodeRefs list it at 58 s (a nodeRef row of 30 s names another
// node, one of 65 s comes after the binding at 60 s): the sentence names
// the 58 s pass as what the pod waited for after Ready.
TEST(PodWaitFacts, ANodeRefAfterReadyIsWhatThePodWaitedFor) {
  Recorder rec;
  rec.Change(PodWaitAt(11), "Instance", "n-1", "state", "", "Launching", "mp-0");
  rec.Change(PodWaitAt(30), "MachinePool", "mp-0", "nodeRef", "", "n-2", "mp-0");
  rec.Change(PodWaitAt(40), "Node", "n-1", "Ready", "False", "True", "mp-0");
  rec.Change(PodWaitAt(58), "MachinePool", "mp-0", "nodeRef", "", "n-1", "mp-0");
  rec.Change(PodWaitAt(65), "MachinePool", "mp-0", "nodeRef", "n-1", "", "mp-0");
  SlowestPodWaits waits;
  waits.Bound("mp-0", {4, PodWaitAt(5), PodWaitAt(60), "n-1"});
  const proto::PodWaits w = PodWaitFacts({"mp-0"}, waits, {}, rec);
  EXPECT_DOUBLE_EQ(w.pools(0).node_ref_at_s(), 58.0);
  EXPECT_EQ(PodWaitText(w, "mp-0"),
            "slowest pod on pool mp-0: pod-4 waited 55.0s: pending from 5.0s, bound at 60.0s to "
            "node n-1, launched at 11.0s (before any scale-up of mp-0 by the autoscaler) and "
            "Ready at 40.0s, then listed in mp-0's nodeRefs at 58.0s, when Cluster API lifted "
            "its uninitialized taint\n");
}

TEST(PodWaitFacts, JsonReadsBack) {
  SlowestPodWaits waits;
  waits.Bound("mp-0", {7, PodWaitAt(5), PodWaitAt(60), "n-1"});
  const proto::PodWaits w = PodWaitFacts({"mp-0"}, waits, {1, PodWaitAt(3)}, PodWaitRows());
  const std::string file = ::testing::TempDir() + "/pod_waits_roundtrip.json";
  { std::ofstream(file) << PodWaitsJson(w); }
  proto::PodWaits back;
  std::string error;
  ASSERT_TRUE(ReadPodWaits(file, &back, &error)) << error;
  EXPECT_EQ(back.SerializeAsString(), w.SerializeAsString());
  std::ofstream(file) << "{\"pools\": 3}";
  EXPECT_FALSE(ReadPodWaits(file, &back, &error));
  EXPECT_NE(error.find("pod_waits_roundtrip.json is not a pod_waits.json"), std::string::npos)
      << error;
}

// scenarios/autoscaler/burst-100-pods.yaml, seed 1, worked out from its
// timeline.csv by hand: at 300 s 100 pods (pod-0 .. pod-99, 1 CPU each) are
// pending; mp-0-00000 (4 CPU) takes pod-0..3 at once (`Pods,pending,count,
// 100,96` at 300 s). `Autoscaler,mp-0,scaleUp: 96 of 96 pending pods,1,25`
// at 310 s; the 24 instances mp-0-00001..24 appear at 310.025121 s
// (`Instance,...,state,,Launching`). Each node that turns Ready takes the
// next 4 pods in creation order; the last is mp-0-00012 (`Node,mp-0-00012,
// Ready,False,True` and `Pods,pending,count,4,0` at 446.101695 s), which
// takes pod-96..99. They waited 446.101695 - 300 = 146.101695 s, the
// longest; pod-96 was bound first of the four. Every pod is deleted at
// 1200 s, so none is pending at the end.
TEST(PodWaitFacts, BurstOfAHundredPodsNamesTheLastNodeAndTheScaleUp) {
  proto::Scenario sc;
  std::vector<ScenarioError> errors;
  ASSERT_TRUE(
      LoadScenario(std::string(MPSIM_SOURCE_DIR) + "/scenarios/autoscaler/burst-100-pods.yaml", {},
                   &sc, &errors));
  RunOutput out;
  std::string error;
  ASSERT_TRUE(RunScenario(sc, 1, &out, &error)) << error;
  ASSERT_TRUE(out.pod_waits.has_value());
  const proto::PodWaits& w = *out.pod_waits;
  ASSERT_EQ(w.pools_size(), 1);
  const proto::PoolPodWait& p = w.pools(0);
  EXPECT_EQ(p.pod(), "pod-96");
  EXPECT_EQ(p.node(), "mp-0-00012");
  EXPECT_DOUBLE_EQ(p.pending_since_s(), 300.0);
  EXPECT_DOUBLE_EQ(p.bound_at_s(), 446.101695);
  EXPECT_DOUBLE_EQ(p.launched_at_s(), 310.025121);
  EXPECT_DOUBLE_EQ(p.ready_at_s(), 446.101695);
  EXPECT_DOUBLE_EQ(p.scale_up().time_s(), 310.0);
  EXPECT_EQ(w.pending_at_end(), 0u);
  std::ostringstream os;
  PrintExplanation(os, out.summary.pools(0), /*color=*/false, &w);
  const std::string text = os.str();
  const std::string want =
      "slowest pod on pool mp-0: pod-96 waited 146.1s: pending from 300.0s, bound at 446.1s to "
      "node mp-0-00012, launched at 310.0s (the autoscaler's scale-up of mp-0 from 1 to 25 at "
      "310.0s: 96 of 96 pending pods) and Ready at 446.1s\n";
  const size_t at = text.find(want);
  ASSERT_NE(at, std::string::npos) << text;
  EXPECT_LT(text.find("why pool mp-0 took"), at) << "the pods come after the critical path";
}

}  // namespace
}  // namespace mpsim
