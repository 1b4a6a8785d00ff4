// CAPG's providerID from an instance self link (docs/reference/providers.md §3.5): exactly
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

// The self links of vm-0 .. vm-<n-1>, and pointers to them as GetAll takes.
struct Urls {
  explicit Urls(int n) {
    for (int i = 0; i < n; ++i) urls.emplace_back(InstanceUrl("p", "z", "vm-" + std::to_string(i)));
    for (const SharedString& u : urls) ptrs.push_back(&u);
  }
  std::vector<SharedString> urls;
  std::vector<const SharedString*> ptrs;
};

// The cache answers as the parse does, shares one entry between passes, and
// never keeps an error: a malformed URL fails every reconcile. One answer per URL buffer: both
// passes list the same entry; errors are never kept; a URL of equal text in another buffer is
// parsed on its own.
TEST(ProviderIdCache, AnswersAsTheParseAndSharesTheEntry) {
  ProviderIdCache cache;
  const SharedString url(InstanceUrl("proj", "z", "mp-0-abcd"));
  std::vector<SharedString> first, second;
  ASSERT_TRUE(cache.GetAll({&url}, &first).ok());
  ASSERT_TRUE(cache.GetAll({&url}, &second).ok());
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0], "gce://proj/z/mp-0-abcd");
  EXPECT_EQ(first[0].data(), second[0].data()) << "both passes list the same entry";
  const SharedString same_text(InstanceUrl("proj", "z", "mp-0-abcd"));
  std::vector<SharedString> third;
  ASSERT_TRUE(cache.GetAll({&same_text}, &third).ok());
  EXPECT_EQ(third[0], "gce://proj/z/mp-0-abcd");
  const SharedString bad("https://www.googleapis.com/compute/v1/projects/p/zones//instances/n");
  std::vector<SharedString> ids;
  EXPECT_FALSE(cache.GetAll({&url, &bad}, &ids).ok());
  EXPECT_FALSE(cache.GetAll({&bad}, &ids).ok()) << "errors are not remembered as answers";
}

// Many URLs in one call (more than the look-ahead), in order, across growth.
TEST(ProviderIdCache, GetAllAnswersEachUrlInOrder) {
  ProviderIdCache cache;
  const Urls u(300);
  std::vector<SharedString> ids;
  ASSERT_TRUE(cache.GetAll(u.ptrs, &ids).ok());
  ASSERT_TRUE(cache.GetAll(u.ptrs, &ids).ok());
  ASSERT_EQ(ids.size(), 300u);
  for (int i = 0; i < 300; ++i) EXPECT_EQ(ids[i], "gce://p/z/vm-" + std::to_string(i));
}

TEST(ProviderIdCache, TrimForgetsDeletedMembersButAnswersStayRight) {
  ProviderIdCache cache;
  const Urls u(100);
  std::vector<SharedString> ids;
  ASSERT_TRUE(cache.GetAll(u.ptrs, &ids).ok());
  const SharedString kept = ids.back();
  cache.Trim(10);  // 100 answers > 2 x 10 + 64: all dropped
  std::vector<SharedString> again;
  ASSERT_TRUE(cache.GetAll({&u.urls.back()}, &again).ok());
  EXPECT_EQ(again[0], "gce://p/z/vm-99");
  EXPECT_NE(again[0].data(), kept.data()) << "parsed anew after the trim";
  EXPECT_EQ(kept, "gce://p/z/vm-99") << "lists that hold the old entry keep it";
}

}  // namespace
}  // namespace mpsim::mig
