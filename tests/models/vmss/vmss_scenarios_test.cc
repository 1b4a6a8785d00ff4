// The Azure scenario library through the real `mpsim check` (issue 6):
// AllocationFailed partial scale-ups, CAPZ #5860's endless loop with the
// v1.26.0 and HEAD ready behaviour, upgrades with maxSurge 1 and 25%,
// scale-down per delete policy, pool deletion, ARM throttling, Spot eviction.
#include <gtest/gtest.h>

#include "tests/testing/run_mpsim.h"

namespace mpsim {
namespace {

TEST(ScenarioAzure, LibraryPasses) {
  auto r = testing::Mpsim("check " + testing::Src("scenarios/azure"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out.find("FAIL"), std::string::npos) << r.out;
  for (const char* f : {"scale-up-1000-allocation-failed", "capz-1503-last-segment",
                        "capz-1503-exact", "endless-loop-v1-26", "endless-loop-head", "upgrade-100",
                        "upgrade-100-surge-25", "scale-down-1000-100", "scale-down-1000-100-newest",
                        "delete-500", "throttled", "spot-eviction"}) {
    EXPECT_NE(r.out.find(std::string("ok   ") + testing::Src("scenarios/azure/") + f),
              std::string::npos)
        << f;
  }
}

}  // namespace
}  // namespace mpsim
