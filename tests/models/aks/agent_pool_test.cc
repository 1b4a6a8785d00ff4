// The AKS agent pool and ASO's resource in front of it, against the facts of
// docs/reference/azure-managed.md §3: the 1000-node limit, no PUT while an
// operation runs, the surge upgrade's defaults, the drain timeout, and
// status.count refreshed only at ASO's re-read.
#include "models/aks/agent_pool.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "models/aks/aso_agent_pool.h"
#include "tests/models/aks/aks_test_fixture.h"

namespace mpsim::aks {
namespace {

// §3.3: a percentage of the pool is rounded up; an integer is taken as is.
TEST(AksScaledUp, PercentagesRoundUp) {
  EXPECT_EQ(ScaledUp("10%", 10), 1);
  EXPECT_EQ(ScaledUp("10%", 15), 2);
  EXPECT_EQ(ScaledUp("10%", 1), 1);
  EXPECT_EQ(ScaledUp("10%", 0), 0);
  EXPECT_EQ(ScaledUp("0", 100), 0);
  EXPECT_EQ(ScaledUp("3", 100), 3);
}

// §3.2: ASO sends a PUT only while the pool is Succeeded, Failed or Canceled
// (managed_clusters_agent_pool_extensions.go:27-34).
TEST(AksAgentPoolStates, OnlySucceededFailedAndCanceledTakeAPut) {
  for (const char* s : {"Succeeded", "Failed", "Canceled"}) EXPECT_TRUE(AgentPool::AcceptsPut(s));
  for (const char* s : {"Creating", "Scaling", "Upgrading", "Updating", "Deleting", ""}) {
    EXPECT_FALSE(AgentPool::AcceptsPut(s)) << s;
  }
}

class AksAgentPoolTest : public AksTest {
 protected:
  void Created(int32_t count, AksOptions o = ConstantAksOptions()) {
    MakeModel(std::move(o));
    ASSERT_TRUE(aks_->Put(count, "1.30.0").ok());
    RunTo(loop_.Now() + 5 * kMinute);
    ASSERT_EQ(aks_->provisioning_state(), "Succeeded");
  }
};

// §3.1: count 0..1000 for User pools; the error names the limit.
TEST_F(AksAgentPoolTest, MoreThan1000NodesIsAValidationErrorNamingTheLimit) {
  MakeModel();
  const Status s = aks_->Put(1001, "1.30.0");
  EXPECT_EQ(s.code(), Status::Code::kInvalid);
  EXPECT_NE(s.message().find("1000"), std::string::npos) << s.message();
  EXPECT_FALSE(aks_->exists());
  EXPECT_TRUE(aks_->Put(1000, "1.30.0").ok());
}

// §3.2: scale and upgrade never at once: a PUT while Upgrading is refused.
TEST_F(AksAgentPoolTest, APutWhileUpgradingIsRefused) {
  Created(3);
  ASSERT_TRUE(aks_->Put(3, "1.31.0").ok());
  EXPECT_EQ(aks_->provisioning_state(), "Upgrading");
  const Status s = aks_->Put(5, "1.31.0");
  EXPECT_EQ(s.code(), Status::Code::kConflict);
  EXPECT_NE(s.message().find("Upgrading"), std::string::npos);
}

// §3.3: maxSurge 10 % of 15 nodes is 2 (rounded up), maxUnavailable 0: the
// scale set holds at most 17 VMs, every node ends on the new version, and
// the surge VMs go at the end.
TEST_F(AksAgentPoolTest, UpgradeSurgesTenPercentRoundedUpAndEndsAtTheCount) {
  Created(15);
  ASSERT_TRUE(aks_->Put(15, "1.31.0").ok());
  size_t most = 0;
  for (Time t = loop_.Now(); t < loop_.Now() + kHour && aks_->provisioning_state() != "Succeeded";
       t += kSecond) {
    RunTo(t);
    most = std::max(most, vmss_->vms().size());
  }
  EXPECT_EQ(aks_->provisioning_state(), "Succeeded");
  EXPECT_EQ(most, 17u);
  EXPECT_EQ(vmss_->vms().size(), 15u);
  EXPECT_EQ(VmsOn("1.31.0"), 15);
  EXPECT_EQ(aks_->orchestrator_version(), "1.31.0");
}

// §3.3: a drain longer than drainTimeoutInMinutes (30 min) fails the upgrade.
TEST_F(AksAgentPoolTest, ADrainLongerThanTheTimeoutFailsTheUpgrade) {
  AksOptions o = ConstantAksOptions();
  o.drain_time = 31 * kMinute;
  Created(3, o);
  ASSERT_TRUE(aks_->Put(3, "1.31.0").ok());
  RunTo(loop_.Now() + 29 * kMinute);
  EXPECT_EQ(aks_->provisioning_state(), "Upgrading");
  RunTo(loop_.Now() + 3 * kMinute);
  EXPECT_EQ(aks_->provisioning_state(), "Failed");
  EXPECT_NE(aks_->error().find("drain"), std::string::npos);
}

// §3.2: a scale asked of ASO during an upgrade is blocked (Ready False,
// Warning, ReconciliationBlocked) and made once the upgrade is done.
TEST_F(AksAgentPoolTest, AsoBlocksAScaleWhileTheUpgradeRuns) {
  MakeModel();
  aso_->Create({.count = 3, .orchestrator_version = "1.30.0"}, "manage");
  RunTo(5 * kMinute);
  ASSERT_TRUE(aso_->ready().status);
  aso_->Update({.count = 3, .orchestrator_version = "1.31.0"}, "manage");
  RunTo(loop_.Now() + 20 * kSecond);
  ASSERT_EQ(aks_->provisioning_state(), "Upgrading");
  aso_->Update({.count = 5, .orchestrator_version = "1.31.0"}, "manage");
  RunTo(loop_.Now() + 5 * kSecond);
  EXPECT_FALSE(aso_->ready().status);
  EXPECT_EQ(aso_->ready().reason, "ReconciliationBlocked");
  EXPECT_EQ(aso_->ready().severity, "Warning");
  EXPECT_EQ(aks_->count(), 3);
  RunTo(loop_.Now() + kHour);
  EXPECT_TRUE(aso_->ready().status);
  EXPECT_EQ(aks_->count(), 5);
  EXPECT_EQ(VmsOn("1.31.0"), 5);
}

// §3.4: AKS's autoscaler changes the count at once; ASO's status.count
// follows only at its re-read, an hour (AZURE_SYNC_PERIOD) after its last.
TEST_F(AksAgentPoolTest, StatusCountLagsTheAutoscalerUntilAsosHourlyReRead) {
  AksOptions o = ConstantAksOptions();
  o.autoscaling = true;
  o.min_count = 1;
  o.max_count = 10;
  o.autoscaler_steps = {{.at = 10 * kMinute, .count = 5}};
  MakeModel(o);
  aso_->Create({.count = 3, .orchestrator_version = "1.30.0"}, "manage");
  RunTo(5 * kMinute);
  ASSERT_EQ(aso_->status_count(), std::optional<int32_t>(3));
  const Time ready_at = loop_.Now();
  RunTo(30 * kMinute);
  EXPECT_EQ(aks_->count(), 5);
  EXPECT_EQ(vmss_->vms().size(), 5u);
  EXPECT_EQ(aso_->status_count(), std::optional<int32_t>(3));
  RunTo(ready_at + kHour + kMinute);
  EXPECT_EQ(aso_->status_count(), std::optional<int32_t>(5));
}

// §1.4, §6 #13: AKS's refusal of a count above 1000 is a terminal (Error)
// condition; no retry follows until the spec changes.
TEST_F(AksAgentPoolTest, ACountAbove1000IsAnErrorCondition) {
  MakeModel();
  aso_->Create({.count = 1200, .orchestrator_version = "1.30.0"}, "manage");
  RunTo(kMinute);
  EXPECT_FALSE(aso_->ready().status);
  EXPECT_EQ(aso_->ready().severity, "Error");
  EXPECT_NE(aso_->ready().message.find("1000"), std::string::npos);
  EXPECT_FALSE(aks_->exists());
  aso_->Update({.count = 1000, .orchestrator_version = "1.30.0"}, "manage");
  RunTo(loop_.Now() + kMinute);
  EXPECT_TRUE(aks_->exists());
}

}  // namespace
}  // namespace mpsim::aks
