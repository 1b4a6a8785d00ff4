// The OCI scenario library through the real `mpsim check` (issue 51): for
// `oci` and `oke` a scale-up, a scale-down, an upgrade (new instances only on
// `oci`, node cycling and no cycling on `oke`), a deletion and a capacity
// shortage; the refusal of `deleteMachine`; and `mpsim compare` on both.
#include <gtest/gtest.h>

#include <fstream>

#include "models/oci/oci_schema.h"
#include "tests/testing/run_mpsim.h"

namespace mpsim {
namespace {

TEST(ScenarioOci, LibraryPasses) {
  auto r = testing::Mpsim("check " + testing::Src("scenarios/oci"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out.find("FAIL"), std::string::npos) << r.out;
  for (const char* f :
       {"oci-scale-up-10", "oci-scale-down", "oci-upgrade-new-instances-only", "oci-delete",
        "oci-capacity-shortage", "oke-scale-up-10", "oke-scale-down", "oke-upgrade-cycling",
        "oke-upgrade-no-cycling", "oke-delete", "oke-capacity-shortage"}) {
    EXPECT_NE(r.out.find(std::string("ok   ") + testing::Src("scenarios/oci/") + f),
              std::string::npos)
        << f;
  }
}

// Neither CAPOCI controller can delete a single machine
// (docs/reference/oci-scaleway.md §1.5, §2.3): the run is refused, exit 2.
void OciExpectDeleteMachineRefused(const std::string& block) {
  const std::string path = (testing::ScratchDir() / (block + "-delete-machine.yaml")).string();
  std::ofstream(path) << "apiVersion: mpsim/v1\nkind: Scenario\nmetadata: {name: dm}\n"
                         "spec:\n  horizon: 10m\n  machinePools:\n    - name: mp-0\n"
                         "      replicas: 2\n      provider: {"
                      << block
                      << ": {}}\n  events:\n    - at: 5m\n      deleteMachine: {pool: mp-0}\n";
  auto r = testing::Mpsim(
      "run " + path + " --quiet --out " + (testing::ScratchDir() / (block + "-dm-out")).string(),
      /*with_stderr=*/true);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("runs on provider `" + block + "`"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("no Machine to delete"), std::string::npos) << r.out;
}

TEST(ScenarioOci, DeleteMachineIsRefusedOnBothBlocks) {
  OciExpectDeleteMachineRefused("oci");
  OciExpectDeleteMachineRefused("oke");
}

TEST(ScenarioOci, CompareRunsBothBlocks) {
  auto r =
      testing::Mpsim("compare " + testing::Src("scenarios/oci/oci-scale-up-10.yaml") +
                     " --providers oci,oke --out " + (testing::ScratchDir() / "compare").string());
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("oci"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("oke"), std::string::npos) << r.out;
}

// The upstream ranges: OKE's eviction grace is PT0M to PT60M and cycling
// needs maximumSurge or maximumUnavailable above 0.
TEST(OciValidation, OkeRefusesAGraceAboveAnHourAndNoCyclingBudget) {
  proto::MachinePoolSpec pool;
  pool.mutable_oke()->add_zones("AD-1");
  pool.mutable_oke()->set_region("iad");
  pool.mutable_oke()->set_maximum_surge(0);
  pool.mutable_oke()->set_maximum_unavailable(0);
  pool.mutable_oke()->set_eviction_grace_duration(61 * kMinute);
  pool.mutable_oke()->mutable_launch_delay()->set_dist("constant");
  pool.mutable_oke()->mutable_launch_delay()->set_value(kSecond);
  pool.mutable_oke()->mutable_delete_delay()->set_dist("constant");
  pool.mutable_oke()->mutable_delete_delay()->set_value(kSecond);
  pool.mutable_oke()->mutable_drain_delay()->set_dist("constant");
  pool.mutable_oke()->mutable_drain_delay()->set_value(kSecond);
  std::vector<scenario::Issue> issues;
  oci::ValidateOkeBlock(pool, "p", &issues);
  std::string all;
  for (const scenario::Issue& i : issues) all += i.path + ": " + i.message + "\n";
  EXPECT_NE(all.find("p.maximumSurge"), std::string::npos) << all;
  EXPECT_NE(all.find("p.evictionGraceDuration"), std::string::npos) << all;
}

}  // namespace
}  // namespace mpsim
