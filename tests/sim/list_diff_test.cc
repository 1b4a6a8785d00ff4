#include "sim/list_diff.h"

#include <gtest/gtest.h>

#include <string_view>
#include <vector>

namespace mpsim {
namespace {

using Views = std::vector<std::string_view>;

TEST(DiffLists, AppendedTailIsAdded) {
  ListDiff d = DiffLists({"a", "b", "c", "d"}, {"a", "b", "c", "d", "f", "e"});
  EXPECT_TRUE(d.gone.empty());
  EXPECT_EQ(d.added, (Views{"e", "f"}));
}

TEST(DiffLists, RemovalInTheMiddle) {
  ListDiff d = DiffLists({"a", "b", "c", "d", "e"}, {"a", "b", "d", "e"});
  EXPECT_EQ(d.gone, (Views{"c"}));
  EXPECT_TRUE(d.added.empty());
}

// "a" moves from the head into the new tail: still present, so neither gone
// nor added, though the middles alone would say "added".
TEST(DiffLists, DuplicateOfASkippedEntryIsNotAdded) {
  ListDiff d = DiffLists({"a", "b", "c", "d"}, {"a", "b", "c", "d", "a"});
  EXPECT_TRUE(d.gone.empty());
  EXPECT_TRUE(d.added.empty());
}

TEST(DiffLists, ReorderedListHasNoChange) {
  ListDiff d = DiffLists({"c", "a", "b"}, {"b", "c", "a"});
  EXPECT_TRUE(d.gone.empty());
  EXPECT_TRUE(d.added.empty());
}

TEST(DiffLists, SortedListGrowingInTheMiddle) {
  ListDiff d = DiffLists({"a", "c", "e", "g"}, {"a", "b", "c", "d", "e", "g"});
  EXPECT_TRUE(d.gone.empty());
  EXPECT_EQ(d.added, (Views{"b", "d"}));
}

TEST(DiffLists, EmptyBeforeOrAfter) {
  EXPECT_EQ(DiffLists({}, {"b", "a", "b"}).added, (Views{"a", "b"}));
  EXPECT_EQ(DiffLists({"b", "a"}, {}).gone, (Views{"a", "b"}));
}

}  // namespace
}  // namespace mpsim
