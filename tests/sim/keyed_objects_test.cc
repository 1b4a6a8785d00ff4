#include "sim/keyed_objects.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "api/objects.h"

namespace mpsim {
namespace {

std::shared_ptr<const Node> MakeNode(const std::string& ns, const std::string& name,
                                     const std::string& id = "") {
  auto n = std::make_shared<Node>();
  n->meta.ns = ns;
  n->meta.name = name;
  n->spec.provider_id = id;
  return n;
}

std::vector<std::string> OrderedNames(const KeyedObjects<Node>& objs) {
  std::vector<std::string> out;
  for (const auto& [key, node] : objs.Ordered()) out.push_back(key.String());
  return out;
}

TEST(KeyedObjects, FindsByNamespaceAndNameAndListsInKeyOrder) {
  KeyedObjects<Node> objs;
  EXPECT_EQ(objs.Find({"", "a"}), nullptr);  // empty table
  objs.Put(MakeNode("kube", "a"));
  objs.Put(MakeNode("", "b"));
  objs.Put(MakeNode("", "a"));
  ASSERT_NE(objs.Find({"kube", "a"}), nullptr);
  EXPECT_EQ((*objs.Find({"kube", "a"}))->meta.ns, "kube");
  EXPECT_EQ(objs.Find({"", "c"}), nullptr);
  EXPECT_EQ(OrderedNames(objs), (std::vector<std::string>{"a", "b", "kube/a"}));
}

// A Put of a known key replaces the object in both the index and the order.
// Slots keep short keys inline and long ones only in their object: both
// kinds, and keys whose namespace and name join to the same text, stay apart.
TEST(KeyedObjects, ShortAndLongKeysAndSplitsOfOneTextAreDistinct) {
  KeyedObjects<Node> objs;
  const std::string long_name(40, 'n');
  objs.Put(MakeNode("ab", "c", "id-1"));
  objs.Put(MakeNode("a", "bc", "id-2"));
  objs.Put(MakeNode("", long_name, "id-3"));
  objs.Put(MakeNode("", long_name.substr(0, 30), "id-4"));
  objs.Put(MakeNode("kube-system", long_name.substr(0, 19), "id-5"));  // 30 bytes in all
  objs.Put(MakeNode("kube-system", long_name.substr(0, 20), "id-6"));  // 31: long
  const std::vector<std::pair<ObjectKey, std::string>> want = {
      {{"ab", "c"}, "id-1"},
      {{"a", "bc"}, "id-2"},
      {{"", long_name}, "id-3"},
      {{"", long_name.substr(0, 30)}, "id-4"},
      {{"kube-system", long_name.substr(0, 19)}, "id-5"},
      {{"kube-system", long_name.substr(0, 20)}, "id-6"}};
  for (const auto& [key, id] : want) {
    ASSERT_NE(objs.Find(key), nullptr) << key.ns << "/" << key.name;
    EXPECT_EQ((*objs.Find(key))->spec.provider_id.str(), id);
  }
  EXPECT_EQ(objs.Find({"", "abc"}), nullptr);
  EXPECT_EQ(objs.Find({"", long_name + "x"}), nullptr);
  EXPECT_EQ(objs.Find({"kube-system", long_name.substr(0, 21)}), nullptr);
  objs.Erase({"", long_name});
  EXPECT_EQ(objs.Find({"", long_name}), nullptr);
  ASSERT_NE(objs.Find({"", long_name.substr(0, 30)}), nullptr);
  EXPECT_EQ(objs.size(), 5u);
}

TEST(KeyedObjects, PutReplacesInPlace) {
  KeyedObjects<Node> objs;
  objs.Put(MakeNode("", "a", "one"));
  objs.Put(MakeNode("", "a", "two"));
  EXPECT_EQ(objs.size(), 1u);
  EXPECT_EQ((*objs.Find({"", "a"}))->spec.provider_id, "two");
  EXPECT_EQ(objs.Ordered().at({"", "a"})->spec.provider_id, "two");
}

// Growth re-places every entry, and erasure shifts runs back: after erasing
// every third of 5,000 keys (long probe runs at this load), each survivor is
// still found and no erased key comes back; the order matches the index.
TEST(KeyedObjects, SurvivesGrowthAndBackwardShiftErasure) {
  KeyedObjects<Node> objs;
  constexpr int kN = 5000;
  auto name = [](int i) { return "node-" + std::to_string(i); };
  for (int i = 0; i < kN; ++i) objs.Put(MakeNode("", name(i)));
  for (int i = 0; i < kN; i += 3) objs.Erase({"", name(i)});
  const size_t left = static_cast<size_t>(kN - (kN + 2) / 3);
  EXPECT_EQ(objs.size(), left);
  EXPECT_EQ(objs.Ordered().size(), left);
  for (int i = 0; i < kN; ++i) {
    const std::shared_ptr<const Node>* found = objs.Find({"", name(i)});
    if (i % 3 == 0) {
      EXPECT_EQ(found, nullptr) << i;
    } else {
      ASSERT_NE(found, nullptr) << i;
      EXPECT_EQ((*found)->meta.name, name(i));
    }
  }
}

TEST(KeyedObjects, AnErasedKeyCanComeBackAndErasingTheAbsentIsANoOp) {
  KeyedObjects<Node> objs;
  objs.Erase({"", "a"});
  objs.Put(MakeNode("", "a"));
  objs.Erase({"", "a"});
  EXPECT_EQ(objs.Find({"", "a"}), nullptr);
  EXPECT_TRUE(objs.Ordered().empty());
  objs.Put(MakeNode("", "a", "back"));
  EXPECT_EQ((*objs.Find({"", "a"}))->spec.provider_id, "back");
}

// The batched Get answers exactly as one Find per key, in the keys' order,
// absent keys included, across more keys than the look-ahead distance.
TEST(KeyedObjects, FindAllAnswersAsOneFindPerKey) {
  KeyedObjects<Node> objs;
  for (int i = 0; i < 100; i += 2) objs.Put(MakeNode("", "n-" + std::to_string(i)));
  std::vector<std::string> names;
  for (int i = 99; i >= 0; --i) names.push_back("n-" + std::to_string(i));
  std::vector<ObjectKeyRef> keys;
  for (const std::string& n : names) keys.push_back({"", n});
  std::vector<const Node*> found;
  objs.FindAll(keys, &found);
  ASSERT_EQ(found.size(), 100u);
  for (size_t k = 0; k < keys.size(); ++k) {
    const std::shared_ptr<const Node>* one = objs.Find(keys[k]);
    if (one == nullptr) {
      EXPECT_EQ(found[k], nullptr) << names[k];
    } else {
      EXPECT_EQ(found[k], one->get()) << names[k];
      EXPECT_EQ(found[k]->meta.name, names[k]);
    }
  }
  EXPECT_EQ(found[0], nullptr);  // n-99: odd names were never put
  ASSERT_NE(found[1], nullptr);
  EXPECT_EQ(found[1]->meta.name, "n-98");
}

// InOrder is key order at every step, checked against a std::map kept beside
// it, whether it merged a few new keys into the last vector by binary
// search, many at once, or dropped the cells of erased keys; it shows an
// object put in place of another under the same key.
TEST(KeyedObjects, InOrderFollowsKeyOrderThroughPutsAndErasures) {
  KeyedObjects<Node> objs;
  std::map<ObjectKey, std::string> model;
  auto put = [&](const std::string& ns, const std::string& name, const std::string& id = "") {
    objs.Put(MakeNode(ns, name, id));
    model[{ns, name}] = id;
  };
  auto erase = [&](const std::string& ns, const std::string& name) {
    objs.Erase({ns, name});
    model.erase({ns, name});
  };
  auto expect_key_order = [&] {
    std::vector<std::string> in_order;
    for (const auto* cell : objs.InOrder()) {
      in_order.push_back((*cell)->meta.Key().String() + "=" + (*cell)->spec.provider_id.str());
    }
    std::vector<std::string> want;
    for (const auto& [key, id] : model) want.push_back(key.String() + "=" + id);
    EXPECT_EQ(in_order, want);
  };
  for (int i = 0; i < 200; i += 2) put("ns", "n-" + std::to_string(1000 + i));
  expect_key_order();  // first call: every key new, one merge
  put("ns", "n-1051");
  put("a", "first");
  put("zz", "last");
  put("ns", "n-1001");
  expect_key_order();  // four new keys, each placed by a binary search
  put("ns", "n-1051", "replaced");
  expect_key_order();
  erase("ns", "n-1100");
  put("ns", "n-1100b");
  erase("ns", "n-1001");  // new since the last call, and gone before the next
  erase("ns", "absent");
  expect_key_order();
  erase("ns", "n-1002");
  put("ns", "n-1002", "back");  // the same key, in a new cell
  expect_key_order();
  for (int i = 1; i < 200; i += 2) put("ns", "n-" + std::to_string(1000 + i));
  expect_key_order();  // many new keys: merged as one run
  EXPECT_EQ(objs.InOrder().size(), objs.size());
}

// An erased key's cell holds nothing from then on; InOrder drops it from the
// order and only then gives it to a new key, so churn does not grow the cells.
TEST(KeyedObjects, AnErasedCellIsReusedOnceInOrderHasDroppedIt) {
  KeyedObjects<Node> objs;
  objs.Put(MakeNode("", "a"));
  const std::shared_ptr<const Node>* cell_a = objs.Find({"", "a"});
  objs.Erase({"", "a"});
  EXPECT_EQ(*cell_a, nullptr);
  objs.Put(MakeNode("", "b"));
  EXPECT_NE(objs.Find({"", "b"}), cell_a);  // the order may still point at a's cell
  ASSERT_EQ(objs.InOrder().size(), 1u);
  EXPECT_EQ((*objs.InOrder()[0])->meta.name, "b");
  objs.Put(MakeNode("", "c"));
  EXPECT_EQ(objs.Find({"", "c"}), cell_a);
  ASSERT_EQ(objs.InOrder().size(), 2u);
  EXPECT_EQ((*objs.InOrder()[1])->meta.name, "c");
}

}  // namespace
}  // namespace mpsim
