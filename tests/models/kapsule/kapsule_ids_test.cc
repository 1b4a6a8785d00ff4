// Scaleway identifiers (UUIDs, providerIDs) and CAPS's strict semver test
// (internal/service/scaleway/common/semver.go IsUpToDate, Masterminds
// StrictNewVersion; docs/reference/oci-scaleway.md §3.1).
#include <gtest/gtest.h>

#include <regex>

#include "models/kapsule/provider_id.h"
#include "models/kapsule/semver.h"

namespace mpsim::kapsule {
namespace {

TEST(KapsuleIds, UuidIsVersion4AndProviderIdHasTheInstanceForm) {
  Rng rng(42);
  const std::string uuid = NewUuid(&rng);
  EXPECT_TRUE(std::regex_match(
      uuid, std::regex("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")))
      << uuid;
  EXPECT_NE(NewUuid(&rng), uuid);
  EXPECT_EQ(InstanceProviderId("nl-ams-1", "11111111-1111-4111-8111-111111111111"),
            "scaleway://instance/nl-ams-1/11111111-1111-4111-8111-111111111111");
}

bool KapsuleUpToDate(const std::string& current, const std::string& desired) {
  bool up = false;
  EXPECT_TRUE(IsUpToDate(current, desired, &up).ok()) << current << " " << desired;
  return up;
}

TEST(KapsuleSemver, CurrentAtLeastDesired) {
  EXPECT_TRUE(KapsuleUpToDate("1.30.0", "1.30.0"));
  EXPECT_TRUE(KapsuleUpToDate("1.31.0", "1.30.9"));
  EXPECT_TRUE(KapsuleUpToDate("1.30.10", "1.30.9")) << "numeric, not text";
  EXPECT_FALSE(KapsuleUpToDate("1.30.0", "1.31.0"));
  EXPECT_FALSE(KapsuleUpToDate("1.31.0-rc.1", "1.31.0")) << "a pre-release is below its release";
  EXPECT_TRUE(KapsuleUpToDate("1.31.0+build.5", "1.31.0")) << "build metadata is ignored";
}

// StrictNewVersion refuses a `v`, a missing part and leading zeros.
TEST(KapsuleSemver, StrictParsing) {
  bool up = false;
  EXPECT_FALSE(IsUpToDate("v1.30.0", "1.30.0", &up).ok());
  EXPECT_FALSE(IsUpToDate("1.30.0", "1.30", &up).ok());
  EXPECT_FALSE(IsUpToDate("1.030.0", "1.30.0", &up).ok());
  EXPECT_FALSE(IsUpToDate("", "1.30.0", &up).ok());
}

}  // namespace
}  // namespace mpsim::kapsule
