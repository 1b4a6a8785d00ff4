#include "util/string_map.h"

#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace mpsim {
namespace {

std::vector<std::string> Keys(const StringMap& m) {
  std::vector<std::string> out;
  for (const auto& [k, v] : m) out.push_back(k);
  return out;
}

// Outputs iterate labels and annotations: the order must stay std::map's.
TEST(StringMap, IteratesInKeyOrderWhateverTheInsertionOrder) {
  StringMap m;
  m["zone"] = "a";
  m["cluster.x-k8s.io/owner-name"] = "mp-0";
  m["app"] = "web";
  m.try_emplace("cluster.x-k8s.io/cluster-name", "demo");
  EXPECT_EQ(Keys(m), (std::vector<std::string>{"app", "cluster.x-k8s.io/cluster-name",
                                               "cluster.x-k8s.io/owner-name", "zone"}));
}

TEST(StringMap, KeysStayUniqueAndTryEmplaceKeepsTheOldValue) {
  StringMap m{{"b", "1"}, {"a", "2"}, {"b", "3"}};  // a repeated key: the last one wins
  EXPECT_EQ(m.size(), 2u);
  EXPECT_EQ(m.at("b"), "3");
  auto [it, fresh] = m.try_emplace("a", "9");
  EXPECT_FALSE(fresh);
  EXPECT_EQ(it->second, "2");
  m.insert_or_assign("a", "9");
  EXPECT_EQ(m.at("a"), "9");
}

TEST(StringMap, FindCountEraseAndAtBehaveAsStdMap) {
  StringMap m{{"a", "1"}, {"c", "3"}};
  EXPECT_EQ(m.find("b"), m.end());
  EXPECT_EQ(m.count("c"), 1u);
  EXPECT_EQ(m.count("b"), 0u);
  EXPECT_THROW(m.at("b"), std::out_of_range);
  EXPECT_EQ(m.erase("b"), 0u);
  EXPECT_EQ(m.erase("a"), 1u);
  EXPECT_EQ(Keys(m), std::vector<std::string>{"c"});
  EXPECT_EQ(m["b"], "");  // operator[] inserts an empty value
  EXPECT_EQ(Keys(m), (std::vector<std::string>{"b", "c"}));
}

// A key given as a SharedString is kept, buffer and all; a key given as text
// gets a buffer of its own.
TEST(StringMap, SharedStringKeysKeepTheirBuffer) {
  const SharedString key("cluster.x-k8s.io/owner-name");
  StringMap m;
  m[key] = "mp-0";
  m.try_emplace(std::string("cluster.x-k8s.io/cluster-name"), "demo");
  EXPECT_EQ(m.find("cluster.x-k8s.io/owner-name")->first.data(), key.data());
  StringMap copy = m;
  EXPECT_EQ(copy.begin()->first.data(), m.begin()->first.data());
  StringMap other;
  other["cluster.x-k8s.io/owner-name"] = "mp-0";
  EXPECT_NE(other.begin()->first.data(), key.data());
  EXPECT_EQ(other.begin()->first, key);
}

// Values are shared too: a copy of a map (a Node copied for a patch) and a
// value assigned from a SharedString keep the buffer, so patchNodes' test of
// an interned value compares addresses.
TEST(StringMap, ValuesKeepTheirBufferAcrossCopies) {
  const SharedString value = SharedString::Interned("MachinePool");
  StringMap m;
  m["cluster.x-k8s.io/owner-kind"] = value;
  EXPECT_EQ(m.at("cluster.x-k8s.io/owner-kind").identity(), value.identity());
  const StringMap copy = m;
  EXPECT_EQ(copy.at("cluster.x-k8s.io/owner-kind").identity(), value.identity());
  m["cluster.x-k8s.io/owner-kind"] = std::string("MachinePool");
  EXPECT_NE(m.at("cluster.x-k8s.io/owner-kind").identity(), value.identity());
  EXPECT_EQ(m, copy) << "equal by content all the same";
}

TEST(StringMap, ConvertsFromStdMapAndComparesByContent) {
  const std::map<std::string, std::string> from{{"x", "1"}, {"y", "2"}};
  StringMap a = from;
  StringMap b;
  b["y"] = "2";
  b["x"] = "1";
  EXPECT_EQ(a, b);
  b["x"] = "0";
  EXPECT_NE(a, b);
  EXPECT_LT(b, a);
}

}  // namespace
}  // namespace mpsim
