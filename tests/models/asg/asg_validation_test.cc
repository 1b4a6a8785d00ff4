// The `provider.asg` keys of lifecycle hooks, API throttling and spot
// interruptions are validated: a bad value is one file:line:column message
// naming the key, and exit status 2.
#include <gtest/gtest.h>

#include "tests/testing/run_mpsim.h"

namespace mpsim {
namespace {

testing::Ran Validate(const std::string& asg_block) {
  return testing::ValidateProviderBlock("asg", asg_block);
}

TEST(AsgValidation, HooksThrottlingAndSpotAsDocumentedAreValid) {
  const testing::Ran r = Validate(
      "{apiThrottling: {enabled: true, describeBurst: 5, runInstancesBurst: 50}, "
      "spotInterruptionRate: 0.5, "
      "machinePoolMachines: true, lifecycleHooks: [{transition: launching, "
      "completeAfter: {dist: constant, value: 30s}}, {transition: terminating, "
      "heartbeatTimeout: 5m, defaultResult: CONTINUE}]}");
  EXPECT_EQ(r.status, 0) << r.out;
}

TEST(AsgValidation, EachBadValueNamesItsKeyAndExitsTwo) {
  const std::string p = "spec.machinePools[0].provider.asg.";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{spotInterruptionRate: 3601}", ":9:15: " + p + "spotInterruptionRate"},
      {"{apiThrottling: {describeBurst: 0}}", p + "apiThrottling.describeBurst"},
      {"{apiThrottling: {describeRefill: 0}}", p + "apiThrottling.describeRefill"},
      {"{apiThrottling: {mutatingBurst: 0}}", p + "apiThrottling.mutatingBurst"},
      {"{apiThrottling: {mutatingRefill: 2000000}}", p + "apiThrottling.mutatingRefill"},
      {"{apiThrottling: {runInstancesBurst: 0}}", p + "apiThrottling.runInstancesBurst"},
      {"{apiThrottling: {runInstancesRefill: -1}}", p + "apiThrottling.runInstancesRefill"},
      {"{lifecycleHooks: [{transition: launch}]}", p + "lifecycleHooks[0].transition"},
      {"{lifecycleHooks: [{transition: launching, heartbeatTimeout: 10s}]}",
       p + "lifecycleHooks[0].heartbeatTimeout"},
      {"{lifecycleHooks: [{transition: launching, heartbeatTimeout: 3h}]}",
       p + "lifecycleHooks[0].heartbeatTimeout"},
      {"{lifecycleHooks: [{transition: launching, defaultResult: abandon}]}",
       p + "lifecycleHooks[0].defaultResult"},
      {"{lifecycleHooks: [{transition: launching, completeAfter: {dist: constant}}]}",
       p + "lifecycleHooks[0].completeAfter"},
      {"{lifecycleHooks: [{transition: terminating}, {transition: terminating}]}",
       p + "lifecycleHooks[1].transition"},
  };
  for (const auto& [block, message] : cases) {
    testing::Ran r = Validate(block);
    EXPECT_EQ(r.status, 2) << block << "\n" << r.out;
    EXPECT_NE(r.out.find(message), std::string::npos) << block << "\n" << r.out;
  }
}

}  // namespace
}  // namespace mpsim
