// CAPG's providerID from an instance self link (providers.md §3.5): exactly
// projects/<p>/zones/<z>/instances/<n> after the API prefix, else an error.
#include "models/mig/instance_url.h"

#include <gtest/gtest.h>

namespace mpsim::mig {
namespace {

TEST(InstanceUrl, SelfLinkBecomesGceProviderId) {
  const std::string url = InstanceUrl("proj", "us-central1-a", "mp-0-abcd");
  EXPECT_EQ(url,
            "https://www.googleapis.com/compute/v1/projects/proj/zones/us-central1-a/instances/"
            "mp-0-abcd");
  std::string id;
  ASSERT_TRUE(ProviderIdFromUrl(url, &id).ok());
  EXPECT_EQ(id, "gce://proj/us-central1-a/mp-0-abcd");
}

TEST(InstanceUrl, AnyOtherShapeIsAnErrorNamingTheUrl) {
  for (const char* bad : {
           "https://www.googleapis.com/compute/v1/projects/p/regions/r/instances/n",
           "https://www.googleapis.com/compute/v1/projects/p/zones/z/instances/n/extra",
           "https://www.googleapis.com/compute/v1/projects/p/zones//instances/n",
           "",
       }) {
    std::string id;
    Status s = ProviderIdFromUrl(bad, &id);
    EXPECT_FALSE(s.ok()) << bad;
    EXPECT_NE(s.message().find(std::string("\"") + bad + "\""), std::string::npos) << s.message();
  }
}

}  // namespace
}  // namespace mpsim::mig
