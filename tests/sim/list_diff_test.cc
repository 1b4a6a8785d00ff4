#include "sim/list_diff.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <string>
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

// Sorted lists changed in several places at once take the merge path; the
// answer must equal plain set differences of the two lists.
TEST(DiffLists, SortedListsChangedInManyPlacesMatchSetDifference) {
  std::vector<std::string> before_s, after_s;
  for (int i = 0; i < 200; ++i) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "id-%04d", i);
    if (i % 7 != 3) before_s.push_back(buf);
    if (i % 5 != 1) after_s.push_back(buf);
  }
  std::vector<std::string_view> before(before_s.begin(), before_s.end());
  std::vector<std::string_view> after(after_s.begin(), after_s.end());
  ListDiff d = DiffLists(before, after);
  std::vector<std::string_view> gone, added;
  std::set_difference(before.begin(), before.end(), after.begin(), after.end(),
                      std::back_inserter(gone));
  std::set_difference(after.begin(), after.end(), before.begin(), before.end(),
                      std::back_inserter(added));
  EXPECT_EQ(d.gone, gone);
  EXPECT_EQ(d.added, added);
  EXPECT_EQ(d.gone.size(), 35u);   // i % 5 == 1, except the 5 with i % 7 == 3
  EXPECT_EQ(d.added.size(), 24u);  // i % 7 == 3, except the 5 with i % 5 == 1
}

}  // namespace
}  // namespace mpsim
