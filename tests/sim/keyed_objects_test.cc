#include "sim/keyed_objects.h"

#include <gtest/gtest.h>

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
  for (const auto& [key, node] : objs.ordered()) out.push_back(key.String());
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
  EXPECT_EQ(objs.ordered().at({"", "a"})->spec.provider_id, "two");
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
  EXPECT_EQ(objs.ordered().size(), left);
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
  EXPECT_TRUE(objs.ordered().empty());
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

// InOrder is the tree's order at every step, whether it merged a few new keys
// into the last vector, rebuilt it after many, or after an erasure, and it
// shows an object put in place of another under the same key.
TEST(KeyedObjects, InOrderFollowsTheTreeThroughPutsAndErasures) {
  KeyedObjects<Node> objs;
  auto expect_tree_order = [&objs] {
    std::vector<std::string> in_order;
    for (const auto* e : objs.InOrder()) {
      in_order.push_back(e->first.String() + "=" + e->second->spec.provider_id.str());
    }
    std::vector<std::string> tree;
    for (const auto& [key, node] : objs.ordered()) {
      tree.push_back(key.String() + "=" + node->spec.provider_id.str());
    }
    EXPECT_EQ(in_order, tree);
  };
  for (int i = 0; i < 200; i += 2) objs.Put(MakeNode("ns", "n-" + std::to_string(1000 + i)));
  expect_tree_order();  // first call: built from the tree
  objs.Put(MakeNode("ns", "n-1051"));
  objs.Put(MakeNode("a", "first"));
  objs.Put(MakeNode("zz", "last"));
  objs.Put(MakeNode("ns", "n-1001"));
  expect_tree_order();  // four new keys merged in
  objs.Put(MakeNode("ns", "n-1051", "replaced"));
  expect_tree_order();
  objs.Erase({"ns", "n-1100"});
  objs.Put(MakeNode("ns", "n-1100b"));
  expect_tree_order();  // rebuilt after the erasure
  for (int i = 1; i < 200; i += 2) objs.Put(MakeNode("ns", "n-" + std::to_string(1000 + i)));
  expect_tree_order();  // many new keys: rebuilt
  EXPECT_EQ(objs.InOrder().size(), objs.ordered().size());
}

}  // namespace
}  // namespace mpsim
