// The summary's numbers against values derived by hand from constant delays
// (issue 8), on tests/data/reports/exact-timing.yaml: informer lag and
// reconcile time zero, bootstrap 2 s, launch 30 s, registration 40 s (the
// kubelet sets the providerID), Ready 5 s, delete 20 s; scale 0 -> 2 at 0 s,
// delete the pool at 300 s.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/testing/run_mpsim.h"

namespace mpsim {
namespace {

using testing::Mpsim;
using testing::Src;

class SummaryNumbers : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::filesystem::path(testing::ScratchPath("summary_numbers"));
    std::filesystem::remove_all(*dir_);
    testing::Ran r = Mpsim("run '" + Src("tests/data/reports/exact-timing.yaml") +
                           "' --quiet --out '" + dir_->string() + "'");
    ASSERT_EQ(r.status, 0) << r.out;
    pool_ = new nlohmann::json(
        nlohmann::json::parse(testing::Slurp(*dir_ / "summary.json"))["pools"][0]);
    timeline_ = new std::string(testing::Slurp(*dir_ / "timeline.csv"));
  }
  static void TearDownTestSuite() {
    std::filesystem::remove_all(*dir_);
    delete dir_;
    delete pool_;
    delete timeline_;
  }
  static std::filesystem::path* dir_;
  static nlohmann::json* pool_;
  static std::string* timeline_;
};
std::filesystem::path* SummaryNumbers::dir_ = nullptr;
nlohmann::json* SummaryNumbers::pool_ = nullptr;
std::string* SummaryNumbers::timeline_ = nullptr;

// Bootstrap data at 2 s: Provisioning, and both instances launched. The next
// pass may come only 1 s later (the per-object limit, docs/reference/capi-core.md §1.2):
// ScalingUp at 3 s. Running at 2 + 30 (launch) + 40 (registration) + 5
// (Ready) = 77 s. Deleting at the event, 300 s.
TEST_F(SummaryNumbers, PhaseTimesFollowFromTheDelays) {
  const std::vector<std::pair<std::string, double>> want = {
      {"Provisioning", 2}, {"ScalingUp", 3}, {"Running", 77}, {"Deleting", 300}};
  const auto& got = (*pool_)["phase_transitions"];
  ASSERT_EQ(got.size(), want.size()) << got.dump();
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i]["phase"], want[i].first);
    EXPECT_DOUBLE_EQ(got[i]["time_s"].get<double>(), want[i].second) << want[i].first;
  }
}

// Both providerIDs reach the list when the instances run (32 s; the test
// provider polls every 10 s from 2 s, so it sees them at once) and both
// Nodes register with them at 72 s, when the Node watch sets the nodeRefs:
// every latency is 40 s, so every percentile is.
TEST_F(SummaryNumbers, MatchingLatencyIsTheRegistrationDelay) {
  const auto& l = (*pool_)["matching_latency_s"];
  EXPECT_EQ(l["count"], 2);
  for (const char* q : {"p50", "p90", "p99", "max"}) EXPECT_DOUBLE_EQ(l[q].get<double>(), 40) << q;
}

// Deleting at 300 s; the instances terminate after the 20 s delete delay,
// the infrastructure's finalizer goes and the MachinePool is gone at 320 s:
// 20 s to converge. Cluster API leaves the Nodes (D4); the node-lifecycle
// controller removes them after nodeMonitorGracePeriod (40 s): 360 s.
TEST_F(SummaryNumbers, DeletionConvergesAfterTheDeleteDelay) {
  EXPECT_EQ((*pool_)["final_phase"], "Deleted");
  EXPECT_DOUBLE_EQ((*pool_)["time_to_converge_s"].get<double>(), 20);
  EXPECT_NE(timeline_->find("320.000000,MachinePool,mp-0,deleted,false,true"), std::string::npos);
  EXPECT_NE(timeline_->find("360.000000,Node,mp-0-00000,deleted,false,true"), std::string::npos);
}

// tests/data/reports/exact-upgrade.yaml: one replica, upgraded at 200 s. The
// test provider launches the replacement at once (it watches the
// MachinePool), it runs at 230 s and the outdated one is retired then: the
// list swaps and Cluster API deletes the retired Node (docs/reference/capi-core.md §2), so
// the pool is ScalingUp with no ready replica until the new Node registers
// (270 s, latency 40 s) and is Ready (275 s): 75 s to converge.
TEST(SummaryNumbersUpgrade, ConvergesWhenTheReplacementNodeIsReady) {
  const auto dir = testing::ScratchPath("summary_numbers_upgrade");
  std::filesystem::remove_all(dir);
  testing::Ran r = Mpsim("run '" + Src("tests/data/reports/exact-upgrade.yaml") +
                         "' --quiet --out '" + dir.string() + "'");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto pool = nlohmann::json::parse(testing::Slurp(dir / "summary.json"))["pools"][0];
  EXPECT_DOUBLE_EQ(pool["time_to_converge_s"].get<double>(), 75);
  const auto& phases = pool["phase_transitions"];
  ASSERT_EQ(phases.size(), 5u) << phases.dump();
  EXPECT_EQ(phases[3]["phase"], "ScalingUp");
  EXPECT_DOUBLE_EQ(phases[3]["time_s"].get<double>(), 230);
  EXPECT_EQ(phases[4]["phase"], "Running");
  EXPECT_DOUBLE_EQ(phases[4]["time_s"].get<double>(), 275);
  EXPECT_EQ(pool["matching_latency_s"]["count"], 2);
  EXPECT_DOUBLE_EQ(pool["matching_latency_s"]["max"].get<double>(), 40);
  const std::string timeline = testing::Slurp(dir / "timeline.csv");
  EXPECT_NE(timeline.find("230.000000,Node,mp-0-00000,deleted,false,true"), std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace mpsim
