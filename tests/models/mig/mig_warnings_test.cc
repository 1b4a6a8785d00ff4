// The `mig` block's warnings: settings CAPG accepts but with which a
// GCPMachinePool can never converge (`mpsim validate` prints them).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "models/mig/mig_schema.h"
#include "models/registry.h"

namespace mpsim::mig {
namespace {

std::vector<scenario::Issue> WarningsFor(const std::vector<std::string>& zones, bool gke) {
  proto::MachinePoolSpec pool;
  pool.set_name("mp-0");
  for (const std::string& z : zones) pool.mutable_mig()->add_zones(z);
  pool.mutable_mig()->set_gke(gke);
  std::vector<scenario::Issue> warnings;
  WarnBlock(pool, "spec.machinePools[0].provider.mig", &warnings);
  return warnings;
}

TEST(MigWarnings, MoreThanOneZoneCanNeverConverge) {
  const auto w = WarningsFor({"us-central1-a", "us-central1-b", "us-central1-c"}, false);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].path, "spec.machinePools[0].provider.mig.zones");
  EXPECT_NE(w[0].message.find("needs exactly one failure domain (zone), got 3"), std::string::npos)
      << w[0].message;
}

TEST(MigWarnings, OneZoneOrAGkePoolIsFine) {
  EXPECT_TRUE(WarningsFor({"us-central1-a"}, false).empty());
  // A GKE pool's zones are a regional cluster's.
  EXPECT_TRUE(WarningsFor({"us-central1-a", "us-central1-b"}, true).empty());
}

TEST(MigWarnings, RegisteredForTheBlock) {
  proto::MachinePoolSpec pool;
  pool.mutable_mig();
  const ProviderRegistration* r = FindProvider(pool);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->warn, &WarnBlock);
}

}  // namespace
}  // namespace mpsim::mig
