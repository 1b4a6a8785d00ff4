// CAPZ's deployment strategy (providers.md §2.2, §2.6.3): surge rounded up,
// unavailability rounded down, and the machines a pass deletes per policy.
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

}  // namespace
}  // namespace mpsim::vmss
