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

TEST(InstanceUrl, TooFewSegmentsAreAnError) {
  std::string id;
  EXPECT_FALSE(ProviderIdFromUrl("projects/p/zones/z/instances", &id).ok());
  EXPECT_FALSE(ProviderIdFromUrl("projects/p/zones/z", &id).ok());
  EXPECT_TRUE(ProviderIdFromUrl("projects/p/zones/z/instances/n", &id).ok()) << "prefix optional";
  EXPECT_EQ(id, "gce://p/z/n");
}

// The cache answers as the parse does, shares one entry between passes, and
// never keeps an error: a malformed URL fails every reconcile.
TEST(ProviderIdCache, AnswersAsTheParseAndSharesTheEntry) {
  ProviderIdCache cache;
  const std::string url = InstanceUrl("proj", "z", "mp-0-abcd");
  SharedString first, second;
  ASSERT_TRUE(cache.Get(url, &first).ok());
  ASSERT_TRUE(cache.Get(url, &second).ok());
  EXPECT_EQ(first, "gce://proj/z/mp-0-abcd");
  EXPECT_EQ(first.data(), second.data()) << "both passes list the same entry";
  const std::string bad = "https://www.googleapis.com/compute/v1/projects/p/zones//instances/n";
  SharedString id;
  EXPECT_FALSE(cache.Get(bad, &id).ok());
  EXPECT_FALSE(cache.Get(bad, &id).ok()) << "errors are not remembered as answers";
}

TEST(ProviderIdCache, TrimForgetsDeletedMembersButAnswersStayRight) {
  ProviderIdCache cache;
  SharedString id;
  for (int i = 0; i < 100; ++i) {
    ASSERT_TRUE(cache.Get(InstanceUrl("p", "z", "vm-" + std::to_string(i)), &id).ok());
  }
  const SharedString kept = id;
  cache.Trim(10);  // 100 answers > 2 x 10 + 64: all dropped
  SharedString again;
  ASSERT_TRUE(cache.Get(InstanceUrl("p", "z", "vm-99"), &again).ok());
  EXPECT_EQ(again, "gce://p/z/vm-99");
  EXPECT_NE(again.data(), kept.data()) << "parsed anew after the trim";
  EXPECT_EQ(kept, "gce://p/z/vm-99") << "lists that hold the old entry keep it";
}

}  // namespace
}  // namespace mpsim::mig
