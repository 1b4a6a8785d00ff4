// The AWS scenario library through the real `mpsim check` (issue 5): ICE
// during a 1000-replica scale-up, scale-down, upgrade by instance refresh,
// deletion, CAPA #3742 never converging, spot interruptions under API
// throttling, a scale-up past the RunInstances resource bucket, a Machine
// deleted under the MachinePoolMachines gate, a second upgrade during a
// running instance refresh (issue 48).
#include <gtest/gtest.h>

#include "tests/testing/run_mpsim.h"

namespace mpsim {
namespace {

TEST(ScenarioAws, LibraryPasses) {
  auto r = testing::Mpsim("check " + testing::Src("scenarios/aws"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out.find("FAIL"), std::string::npos) << r.out;
  for (const char* f :
       {"scale-up-1000-ice", "scale-down-1000-100", "upgrade-100", "delete-500",
        "capa-3742-missing-az", "reordered-list", "spot-throttling",
        "scale-up-1500-runinstances-throttled", "machinepool-machines", "upgrade-during-refresh"}) {
    EXPECT_NE(r.out.find(std::string("ok   ") + testing::Src("scenarios/aws/") + f),
              std::string::npos)
        << f;
  }
}

}  // namespace
}  // namespace mpsim
