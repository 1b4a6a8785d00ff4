#include "sim/object_index.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "api/objects.h"

namespace mpsim {
namespace {

std::shared_ptr<const Node> MakeNode(const std::string& ns, const std::string& name) {
  auto n = std::make_shared<Node>();
  n->meta.ns = ns;
  n->meta.name = name;
  return n;
}

using Index = ObjectIndex<Node, int>;

TEST(ObjectIndex, FindsByNamespaceAndName) {
  Index idx;
  EXPECT_EQ(idx.Find({"", "a"}), nullptr);  // empty table
  idx.Insert(MakeNode("", "a"), 1);
  idx.Insert(MakeNode("kube", "a"), 2);
  ASSERT_NE(idx.Find({"", "a"}), nullptr);
  EXPECT_EQ(idx.Find({"", "a"})->pos, 1);
  EXPECT_EQ(idx.Find({"kube", "a"})->pos, 2);
  EXPECT_EQ(idx.Find({"", "b"}), nullptr);
  EXPECT_EQ(idx.size(), 2u);
}

// Growth re-places every entry, and erasure shifts runs back: after erasing
// every third of 5,000 keys (long probe runs at this load), each survivor
// is still found at its own position and no erased key comes back.
TEST(ObjectIndex, SurvivesGrowthAndBackwardShiftErasure) {
  Index idx;
  constexpr int kN = 5000;
  for (int i = 0; i < kN; ++i) idx.Insert(MakeNode("", "node-" + std::to_string(i)), i);
  for (int i = 0; i < kN; i += 3) {
    Index::Slot* s = idx.Find({"", "node-" + std::to_string(i)});
    ASSERT_NE(s, nullptr) << i;
    idx.Erase(s);
  }
  EXPECT_EQ(idx.size(), static_cast<size_t>(kN - (kN + 2) / 3));
  for (int i = 0; i < kN; ++i) {
    const Index::Slot* s = idx.Find({"", "node-" + std::to_string(i)});
    if (i % 3 == 0) {
      EXPECT_EQ(s, nullptr) << i;
    } else {
      ASSERT_NE(s, nullptr) << i;
      EXPECT_EQ(s->pos, i);
      EXPECT_EQ(s->obj->meta.name, "node-" + std::to_string(i));
    }
  }
}

TEST(ObjectIndex, AnErasedKeyCanComeBack) {
  Index idx;
  idx.Insert(MakeNode("", "a"), 1);
  idx.Erase(idx.Find({"", "a"}));
  EXPECT_EQ(idx.Find({"", "a"}), nullptr);
  idx.Insert(MakeNode("", "a"), 7);
  EXPECT_EQ(idx.Find({"", "a"})->pos, 7);
}

}  // namespace
}  // namespace mpsim
