// CAPZ's deployment strategy (docs/reference/providers.md §2.2, §2.6.3): surge rounded up,
// unavailability rounded down, and the machines a pass deletes per policy,
// as v1.26.0 and as HEAD pick them (hand-worked from docs/reference/providers.md §2.6.3),
// machines marked delete-machine first (CAPZ's own test case ported).
#include "models/vmss/deployment_strategy.h"

#include <gtest/gtest.h>

namespace mpsim::vmss {
namespace {

TEST(ScaledValue, IntegersAreTakenAsTheyAre) {
  for (int32_t replicas : {1, 3, 10, 100}) {
    EXPECT_EQ(ScaledValue("1", replicas, true), 1);
    EXPECT_EQ(ScaledValue("0", replicas, false), 0);
  }
}

TEST(ScaledValue, SurgePercentagesRoundUp) {
  EXPECT_EQ(ScaledValue("25%", 1, true), 1);
  EXPECT_EQ(ScaledValue("25%", 3, true), 1);
  EXPECT_EQ(ScaledValue("25%", 10, true), 3);
  EXPECT_EQ(ScaledValue("25%", 100, true), 25);
  EXPECT_EQ(ScaledValue("100%", 3, true), 3);
}

TEST(ScaledValue, UnavailablePercentagesRoundDown) {
  EXPECT_EQ(ScaledValue("25%", 1, false), 0);
  EXPECT_EQ(ScaledValue("25%", 3, false), 0);
  EXPECT_EQ(ScaledValue("25%", 10, false), 2);
  EXPECT_EQ(ScaledValue("25%", 100, false), 25);
}

TEST(ValidIntOrPercent, AcceptsIntegersAndPercentagesUpTo100) {
  EXPECT_TRUE(ValidIntOrPercent("0"));
  EXPECT_TRUE(ValidIntOrPercent("25%"));
  EXPECT_FALSE(ValidIntOrPercent("101%"));
  EXPECT_FALSE(ValidIntOrPercent("-1"));
  EXPECT_FALSE(ValidIntOrPercent("1.5"));
  EXPECT_FALSE(ValidIntOrPercent(""));
}

std::vector<MachineView> Ready(int n, bool latest) {
  std::vector<MachineView> v;
  for (int i = 0; i < n; ++i) {
    v.push_back({.id = static_cast<uint64_t>(i), .ready = true, .latest_model = latest});
  }
  return v;
}

std::vector<uint64_t> Select(int32_t desired, DeletePolicy p, const std::vector<MachineView>& m,
                             const std::string& unavailable = "0") {
  Rng rng = StreamFor(1, "test");
  return SelectMachinesToDelete(desired, unavailable, p, m, &rng);
}

TEST(SelectMachinesToDelete, OldestDeletesTheLowestInstanceIds) {
  EXPECT_EQ(Select(3, DeletePolicy::kOldest, Ready(5, true)), (std::vector<uint64_t>{0, 1}));
}

TEST(SelectMachinesToDelete, NewestDeletesTheHighestInstanceIds) {
  EXPECT_EQ(Select(3, DeletePolicy::kNewest, Ready(5, true)), (std::vector<uint64_t>{4, 3}));
}

TEST(SelectMachinesToDelete, RandomDeletesTheRightNumberOfDistinctMachines) {
  std::vector<uint64_t> got = Select(10, DeletePolicy::kRandom, Ready(20, true));
  ASSERT_EQ(got.size(), 10u);
  std::sort(got.begin(), got.end());
  EXPECT_EQ(std::unique(got.begin(), got.end()), got.end());
  EXPECT_NE(got, Select(10, DeletePolicy::kOldest, Ready(20, true)));
}

TEST(SelectMachinesToDelete, FailedMachinesGoFirstAndAlone) {
  std::vector<MachineView> m = Ready(4, true);
  m[2].ready = false;
  m[2].failed = true;
  // Over-provisioned by one ready machine too, but failed ones are a pass of their own.
  EXPECT_EQ(Select(2, DeletePolicy::kOldest, m), (std::vector<uint64_t>{2}));
}

TEST(SelectMachinesToDelete, NeverReplacesWhileShortOfReadyMachines) {
  std::vector<MachineView> m = Ready(3, false);
  m[0].ready = false;
  EXPECT_TRUE(Select(3, DeletePolicy::kOldest, m, "1").empty());
}

TEST(SelectMachinesToDelete, OverProvisionTakesOldModelMachinesFirst) {
  std::vector<MachineView> m = Ready(4, true);
  m[3].latest_model = false;  // the newest is on the old model
  EXPECT_EQ(Select(3, DeletePolicy::kOldest, m), (std::vector<uint64_t>{3}));
}

TEST(SelectMachinesToDelete, UnavailabilityBudgetBoundsReplacementsAtDesired) {
  EXPECT_TRUE(Select(4, DeletePolicy::kOldest, Ready(4, false), "0").empty());
  EXPECT_EQ(Select(4, DeletePolicy::kOldest, Ready(4, false), "50%"),
            (std::vector<uint64_t>{0, 1}));
}

std::vector<uint64_t> SelectHead(int32_t desired, DeletePolicy p, const std::vector<MachineView>& m,
                                 bool rollout, const std::string& unavailable = "0") {
  Rng rng = StreamFor(1, "test");
  return SelectMachinesToDeleteHead(desired, unavailable, p, m, rollout, &rng);
}

// One machine: `id`, ready or not, on the latest model or not.
MachineView Vm(uint64_t id, bool ready, bool latest) {
  return {.id = id, .ready = ready, .latest_model = latest};
}

using Ids = std::vector<uint64_t>;

TEST(RolloutInProgress, OnlyWithOldModelMachinesAndNotBelowTheLastReconciledReplicas) {
  EXPECT_TRUE(RolloutInProgress(3, 3, false));
  EXPECT_TRUE(RolloutInProgress(3, 0, false));   // never reconciled yet
  EXPECT_TRUE(RolloutInProgress(5, 3, false));   // scale-up during a rollout
  EXPECT_FALSE(RolloutInProgress(2, 3, false));  // a scale-down
  EXPECT_FALSE(RolloutInProgress(3, 3, true));   // every machine on the latest model
}

// Where the two versions' rules agree, HEAD picks what v1.26.0 picks.
TEST(SelectMachinesToDeleteHead, AgreesWithV1_26_0WhereTheRulesAgree) {
  for (DeletePolicy p : {DeletePolicy::kOldest, DeletePolicy::kNewest, DeletePolicy::kRandom}) {
    EXPECT_EQ(SelectHead(3, p, Ready(5, true), false), Select(3, p, Ready(5, true)))
        << static_cast<int>(p);
    EXPECT_EQ(SelectHead(3, p, Ready(5, true), true), Select(3, p, Ready(5, true)))
        << static_cast<int>(p);
  }
  std::vector<MachineView> failed = Ready(4, true);
  failed[2] = {.id = 2, .failed = true};
  EXPECT_EQ(SelectHead(2, DeletePolicy::kOldest, failed, false), (Ids{2}));
  std::vector<MachineView> short_of_ready = Ready(3, false);
  short_of_ready[0].ready = false;
  EXPECT_TRUE(SelectHead(3, DeletePolicy::kOldest, short_of_ready, true, "1").empty());
  std::vector<MachineView> newest_old = Ready(4, true);
  newest_old[3].latest_model = false;
  EXPECT_EQ(SelectHead(3, DeletePolicy::kOldest, newest_old, true), (Ids{3}));
  EXPECT_TRUE(SelectHead(4, DeletePolicy::kOldest, Ready(4, false), true, "0").empty());
  EXPECT_EQ(SelectHead(4, DeletePolicy::kOldest, Ready(4, false), true, "50%"), (Ids{0, 1}));
  // A surge VM still booting is protected: nothing goes until it is ready.
  const std::vector<MachineView> surge = {Vm(0, true, false), Vm(1, true, false),
                                          Vm(2, true, false), Vm(3, false, true)};
  EXPECT_TRUE(Select(3, DeletePolicy::kOldest, surge).empty());
  EXPECT_TRUE(SelectHead(3, DeletePolicy::kOldest, surge, true).empty());
  // Once it is ready, the oldest old-model machine makes room, as before.
  const std::vector<MachineView> surged = {Vm(0, true, false), Vm(1, true, false),
                                           Vm(2, true, false), Vm(3, true, true),
                                           Vm(4, false, true)};
  EXPECT_EQ(Select(3, DeletePolicy::kOldest, surged), (Ids{0}));
  EXPECT_EQ(SelectHead(3, DeletePolicy::kOldest, surged, true), (Ids{0}));
}

// Scale-down 5 -> 2 while two new machines boot: v1.26.0 counts the 3 ready
// ones (over by 1); HEAD counts all 5 (over by 3), unready ones first.
TEST(SelectMachinesToDeleteHead, ScaleDownDeletesUnreadyMachinesFirst) {
  const std::vector<MachineView> m = {Vm(0, true, true), Vm(1, true, true), Vm(2, true, true),
                                      Vm(3, false, true), Vm(4, false, true)};
  EXPECT_EQ(Select(2, DeletePolicy::kOldest, m), (Ids{0}));
  EXPECT_EQ(SelectHead(2, DeletePolicy::kOldest, m, false), (Ids{3, 4, 0}));
}

// Scale-down 4 -> 3 with two machines not ready: v1.26.0 waits while short of
// ready machines; HEAD's guard comes after the over-provision branch.
TEST(SelectMachinesToDeleteHead, ScaleDownProceedsWhileShortOfReadyMachines) {
  const std::vector<MachineView> m = {Vm(0, true, true), Vm(1, true, true), Vm(2, false, true),
                                      Vm(3, false, true)};
  EXPECT_TRUE(Select(3, DeletePolicy::kOldest, m).empty());
  EXPECT_EQ(SelectHead(3, DeletePolicy::kOldest, m, false), (Ids{2}));
  EXPECT_EQ(SelectHead(3, DeletePolicy::kNewest, m, false), (Ids{3}));
}

// During a rollout an old-model machine whose Node went NotReady: v1.26.0
// has exactly `desired` ready machines and no budget; HEAD counts the unready
// one as over-provision (nothing protected: no unready latest-model machine).
TEST(SelectMachinesToDeleteHead, UnreadyOldModelMachineGoesDuringARollout) {
  const std::vector<MachineView> m = {Vm(0, true, false), Vm(1, true, false), Vm(2, false, false),
                                      Vm(3, true, true)};
  EXPECT_TRUE(Select(3, DeletePolicy::kOldest, m).empty());
  EXPECT_EQ(SelectHead(3, DeletePolicy::kOldest, m, true), (Ids{2}));
}

// Two unready latest-model machines and one ready old-model machine during a
// rollout: one is protected, the other is over-provision; v1.26.0 sees 3
// ready of 3 and no budget. CAPZ HEAD deletes the first (2 - 1) unready
// latest-model machines in policy order and so protects the last one
// (machinepool_deployment_strategy.go:264-284, docs/reference/providers.md
// §2.6.3): the older under Oldest, the newer under Newest.
TEST(SelectMachinesToDeleteHead, UnreadyReplacementsBeyondTheProtectedCountGo) {
  const std::vector<MachineView> m = {Vm(0, true, false), Vm(1, true, true), Vm(2, true, true),
                                      Vm(3, false, true), Vm(4, false, true)};
  EXPECT_TRUE(Select(3, DeletePolicy::kOldest, m).empty());
  EXPECT_EQ(SelectHead(3, DeletePolicy::kOldest, m, true), (Ids{3}));
  EXPECT_EQ(SelectHead(3, DeletePolicy::kNewest, m, true), (Ids{4}));
  // Not a rollout (a scale-down below the last reconciled replicas): none is protected.
  EXPECT_EQ(SelectHead(3, DeletePolicy::kOldest, m, false), (Ids{3, 4}));
}

// Three unready replacements, two ready old-model machines to replace: two are
// protected, and the one that goes is the first in policy order
// (machinepool_deployment_strategy.go:270-283), whatever the policy.
TEST(SelectMachinesToDeleteHead, ProtectedReplacementsAreTheLastInPolicyOrder) {
  const std::vector<MachineView> m = {Vm(0, true, false), Vm(1, true, false), Vm(2, true, true),
                                      Vm(3, false, true), Vm(4, false, true), Vm(5, false, true)};
  EXPECT_EQ(SelectHead(3, DeletePolicy::kOldest, m, true), (Ids{3}));
  EXPECT_EQ(SelectHead(3, DeletePolicy::kNewest, m, true), (Ids{5}));
}

// Over by one with an unready latest-model machine and a ready old-model one:
// during a rollout HEAD protects the unready one and takes the old one, as
// v1.26.0 does; on a scale-down the unready one goes first.
TEST(SelectMachinesToDeleteHead, ProtectionDecidesBetweenUnreadyNewAndReadyOld) {
  const std::vector<MachineView> m = {Vm(0, true, false), Vm(1, false, true), Vm(2, true, true),
                                      Vm(3, true, true)};
  EXPECT_EQ(Select(2, DeletePolicy::kOldest, m), (Ids{0}));
  EXPECT_EQ(SelectHead(2, DeletePolicy::kOldest, m, true), (Ids{0}));
  EXPECT_EQ(SelectHead(2, DeletePolicy::kOldest, m, false), (Ids{1, 0}));
}

// CAPZ's "if machine has delete machine annotation, select those machines
// first" (machinepool_deployment_strategy_test.go:245-257 at v1.26.0,
// :486-498 at HEAD): bar, baz, bin, foo created an hour apart, all ready on
// the latest model, bin annotated, 2 desired, Oldest: only bin goes, where
// the over-provision alone would take bar and baz.
TEST(DeleteMark, UpstreamCaseOnlyTheAnnotatedMachineGoes) {
  std::vector<MachineView> m = Ready(4, true);  // bar, baz, bin, foo
  m[2].annotated = true;
  EXPECT_EQ(Select(2, DeletePolicy::kOldest, m), (Ids{2}));
  EXPECT_EQ(SelectHead(2, DeletePolicy::kOldest, m, false), (Ids{2}));
  EXPECT_EQ(SelectHead(2, DeletePolicy::kOldest, m, true), (Ids{2}));
  m[2].annotated = false;
  EXPECT_EQ(Select(2, DeletePolicy::kOldest, m), (Ids{0, 1}));
}

// Step 2 returns the annotated set whatever the counts (v1.26.0 :173-177,
// HEAD :214-218): every marked machine, even with none over-provisioned.
TEST(DeleteMark, EveryAnnotatedMachineGoesWhateverTheCount) {
  std::vector<MachineView> m = Ready(4, true);
  m[1].annotated = true;
  EXPECT_EQ(Select(4, DeletePolicy::kOldest, m), (Ids{1}));
  EXPECT_EQ(SelectHead(4, DeletePolicy::kOldest, m, false), (Ids{1}));
  m[3].annotated = true;
  EXPECT_EQ(Select(3, DeletePolicy::kNewest, m), (Ids{3, 1}));
  EXPECT_EQ(SelectHead(3, DeletePolicy::kNewest, m, false), (Ids{3, 1}));
}

// Failed machines still come first and alone (step 1); within them the
// annotated ones lead (orderByDeleteMachineAnnotation, v1.26.0 :151-154).
// Newest would list 3 before 1.
TEST(DeleteMark, FailedMachinesComeFirstAnnotatedOnesLeading) {
  std::vector<MachineView> m = Ready(5, true);
  m[0].annotated = true;
  m[1] = {.id = 1, .failed = true, .annotated = true};
  m[3] = {.id = 3, .failed = true};
  EXPECT_EQ(Select(2, DeletePolicy::kNewest, m), (Ids{1, 3}));
  EXPECT_EQ(SelectHead(2, DeletePolicy::kNewest, m, false), (Ids{1, 3}));
}

// A marked machine already being deleted stays in CAPZ's annotated set (it
// filters nothing, v1.26.0 :247-257): the pass returns it again and deletes
// nothing else, though 3 ready machines are 2 over. Unmarked, the model
// leaves it out of every set (its AMPM being deleted is not ready, :288-303),
// and the over-provision is taken.
TEST(DeleteMark, AMarkedMachineBeingDeletedHoldsThePass) {
  std::vector<MachineView> m = Ready(4, true);
  m[0] = {.id = 0, .annotated = true, .going = true};
  EXPECT_EQ(Select(1, DeletePolicy::kOldest, m), (Ids{0}));
  EXPECT_EQ(SelectHead(1, DeletePolicy::kOldest, m, false), (Ids{0}));
  m[0].annotated = false;
  EXPECT_EQ(Select(1, DeletePolicy::kOldest, m), (Ids{1, 2}));
  EXPECT_EQ(SelectHead(1, DeletePolicy::kOldest, m, false), (Ids{1, 2}));
}

}  // namespace
}  // namespace mpsim::vmss
