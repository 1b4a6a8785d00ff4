// The GCP scenario library through the real `mpsim check` (issue 7): a
// stockout that never finishes, stockouts at 1000 replicas, PROACTIVE and
// OPPORTUNISTIC upgrades (and PROACTIVE ones with a percent maxSurge and with
// RECREATE), API rate limits, the one-zone rule, a malformed
// instance URL, scale-down 1000 -> 100, deleting 500 instances, scripted and
// random preemptions, the 24 h limit of preemptible VMs, a GKE node pool
// scaled and surge-upgraded, one handed to GKE's autoscaler, one whose
// image type changes, one whose labels and taints change in place, one
// whose GCE resource labels and network tags do and one whose locations
// change.
#include <gtest/gtest.h>

#include "tests/testing/run_mpsim.h"

namespace mpsim {
namespace {

TEST(ScenarioGcp, LibraryPasses) {
  auto r = testing::Mpsim("check " + testing::Src("scenarios/gcp"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out.find("FAIL"), std::string::npos) << r.out;
  for (const char* f :
       {"stockout-never-finishes", "scale-up-1000-stockouts", "upgrade-proactive",
        "upgrade-percent-recreate", "upgrade-opportunistic", "rate-limited", "two-zones-rejected",
        "malformed-url", "scale-down-1000-100", "delete-500", "preemption", "preemptible-24h",
        "spot-preemptions", "gke-scale-and-upgrade", "gke-autoscaling", "gke-image-type-change",
        "gke-labels-taints", "gke-resource-labels-network-tags", "gke-node-locations"}) {
    EXPECT_NE(r.out.find(std::string("ok   ") + testing::Src("scenarios/gcp/") + f),
              std::string::npos)
        << f;
  }
}

}  // namespace
}  // namespace mpsim
