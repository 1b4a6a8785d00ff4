#include "util/flat_view_map.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace mpsim {
namespace {

TEST(FlatViewMap, FindsEveryKeyAcrossGrowthAndMissesOthers) {
  std::vector<std::string> keys;
  for (int i = 0; i < 1000; ++i) keys.push_back("aws:///us-east-1a/i-" + std::to_string(i));
  FlatViewMap<int> m;  // no reserve: the index grows many times
  for (int i = 0; i < 1000; ++i) m.InsertOrAssign(keys[i], i);
  ASSERT_EQ(m.size(), 1000u);
  for (int i = 0; i < 1000; ++i) {
    auto it = m.find(keys[i]);
    ASSERT_NE(it, m.end()) << keys[i];
    EXPECT_EQ(it->second, i);
  }
  EXPECT_EQ(m.find("aws:///us-east-1a/i-1000"), m.end());
  EXPECT_EQ(m.find(""), m.end());
  EXPECT_EQ(FlatViewMap<int>().find("x"), FlatViewMap<int>().end());
}

// Go's map assignment: a second value under one key replaces the first, and
// the entry's key then views the new value's bytes.
TEST(FlatViewMap, ALaterValueUnderOneKeyReplacesKeyAndValue) {
  const std::string first = "node-a";
  const std::string second = "node-a";  // equal text, other bytes
  FlatViewMap<const std::string*> m;
  m.InsertOrAssign(first, &first);
  m.InsertOrAssign("other", nullptr);
  m.InsertOrAssign(second, &second);
  ASSERT_EQ(m.size(), 2u);
  auto it = m.find("node-a");
  ASSERT_NE(it, m.end());
  EXPECT_EQ(it->second, &second);
  EXPECT_EQ(it->first.data(), second.data());
}

// Iteration follows insertion, so no hash order can reach an output.
TEST(FlatViewMap, IteratesInInsertionOrder) {
  FlatViewMap<int> m = {{"c", 3}, {"a", 1}, {"b", 2}};
  std::vector<std::string> order;
  for (const auto& [k, v] : m) order.emplace_back(k);
  EXPECT_EQ(order, (std::vector<std::string>{"c", "a", "b"}));
  EXPECT_EQ(m.at("a"), 1);
}

TEST(FlatViewMap, LookupWithAPrecomputedHashAgreesWithThePlainOne) {
  FlatViewMap<int> m = {{"gce://p/z/a", 1}, {"gce://p/z/b", 2}};
  const uint64_t h = FlatViewMap<int>::Hash("gce://p/z/b");
  m.Prefetch(h);
  EXPECT_EQ(m.find("gce://p/z/b", h), m.find("gce://p/z/b"));
  EXPECT_EQ(m.find("gce://p/z/b", h)->second, 2);
}

// A caller loading ahead gets, at the last step, the entry a find would
// compare first: for a present key in its own slot, that key's entry.
TEST(FlatViewMap, PrefetchFindHandsOverTheFirstEntryAtItsLastStep) {
  const FlatViewMap<int> m = {{"node-a", 1}, {"node-b", 2}};
  const uint64_t h = FlatViewMap<int>::Hash("node-b");
  EXPECT_EQ(m.PrefetchFind(h, 3), nullptr);
  EXPECT_EQ(m.PrefetchFind(h, 2), nullptr);
  const FlatViewMap<int>::value_type* e = m.PrefetchFind(h, 1);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->first, "node-b");
  EXPECT_EQ(e->second, 2);
  EXPECT_EQ(FlatViewMap<int>().PrefetchFind(h, 1), nullptr);  // no index yet
}

}  // namespace
}  // namespace mpsim
