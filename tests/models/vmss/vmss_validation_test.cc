// Every `provider.vmss` key of its own is validated: a bad value is one
// file:line:column message naming the key, and exit status 2.
#include <gtest/gtest.h>

#include "tests/testing/run_mpsim.h"

namespace mpsim {
namespace {

testing::Ran Validate(const std::string& vmss_block) {
  return testing::ValidateProviderBlock("vmss", vmss_block);
}

TEST(VmssValidation, DefaultsAreValid) { EXPECT_EQ(Validate("{}").status, 0); }

TEST(VmssValidation, NewKeysAcceptTheirRanges) {
  const std::vector<std::string> blocks = {
      "{deleteSelection: v1.26.0}",         "{resourceGroup: My_RG-(1).x}",
      "{nodeResourceGroupCase: original}",  "{orchestrationMode: Flexible}",
      "{terminateNotificationTimeout: 5m}", "{terminateNotificationTimeout: 15m}",
      "{terminateNotificationTimeout: 0s}",
  };
  for (const std::string& block : blocks) {
    testing::Ran r = Validate(block);
    EXPECT_EQ(r.status, 0) << block << "\n" << r.out;
  }
}

TEST(VmssValidation, TerminateNotificationTimeoutSaysItsRange) {
  testing::Ran r = Validate("{terminateNotificationTimeout: 20m}");
  EXPECT_NE(r.out.find("expected a duration from 5m to 15m, or 0s for no terminate notification"),
            std::string::npos)
      << r.out;
}

TEST(VmssValidation, EachBadValueNamesItsKeyAndExitsTwo) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{maxSurge: \"150%\"}", ":9:16: spec.machinePools[0].provider.vmss.maxSurge"},
      {"{maxUnavailable: abc}", ":9:16: spec.machinePools[0].provider.vmss.maxUnavailable"},
      {"{deletePolicy: Oldst}", ":9:16: spec.machinePools[0].provider.vmss.deletePolicy"},
      {"{failedBehavior: old}", ":9:16: spec.machinePools[0].provider.vmss.failedBehavior"},
      {"{armReadBurst: 0}", ":9:16: spec.machinePools[0].provider.vmss.armReadBurst"},
      {"{armWriteBurst: 0}", ":9:16: spec.machinePools[0].provider.vmss.armWriteBurst"},
      {"{armReadsPerSecond: 0}", ":9:16: spec.machinePools[0].provider.vmss.armReadsPerSecond"},
      {"{armWritesPerSecond: 0}", ":9:16: spec.machinePools[0].provider.vmss.armWritesPerSecond"},
      {"{allocationFailedProbability: 2}",
       ":9:16: spec.machinePools[0].provider.vmss.allocationFailedProbability"},
      {"{drainTime: -5s}", ":9:16: spec.machinePools[0].provider.vmss.drainTime"},
      {"{deleteSelection: HEAD}", ":9:16: spec.machinePools[0].provider.vmss.deleteSelection"},
      {"{deleteSelection: v1.25.0}", ":9:16: spec.machinePools[0].provider.vmss.deleteSelection"},
      {"{resourceGroup: \"\"}", ":9:16: spec.machinePools[0].provider.vmss.resourceGroup"},
      {"{resourceGroup: rg.}", ":9:16: spec.machinePools[0].provider.vmss.resourceGroup"},
      {"{resourceGroup: a/b}", ":9:16: spec.machinePools[0].provider.vmss.resourceGroup"},
      {"{nodeResourceGroupCase: upper}",
       ":9:16: spec.machinePools[0].provider.vmss.nodeResourceGroupCase"},
      {"{orchestrationMode: Flex}", ":9:16: spec.machinePools[0].provider.vmss.orchestrationMode"},
      {"{terminateNotificationTimeout: 4m}",
       ":9:16: spec.machinePools[0].provider.vmss.terminateNotificationTimeout"},
      {"{terminateNotificationTimeout: 16m}",
       ":9:16: spec.machinePools[0].provider.vmss.terminateNotificationTimeout"},
      {"{operationDelay: {dist: constant, value: -1s}}",
       ":9:49: spec.machinePools[0].provider.vmss.operationDelay.value"},
  };
  for (const auto& [block, message] : cases) {
    testing::Ran r = Validate(block);
    EXPECT_EQ(r.status, 2) << block << "\n" << r.out;
    EXPECT_NE(r.out.find(message), std::string::npos) << block << "\n" << r.out;
  }
}

}  // namespace
}  // namespace mpsim
