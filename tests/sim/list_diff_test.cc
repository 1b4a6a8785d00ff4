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

// `d` must be the plain set differences of two sorted lists.
void ExpectSetDifferences(const Views& before, const Views& after, const ListDiff& d) {
  Views gone, added;
  std::set_difference(before.begin(), before.end(), after.begin(), after.end(),
                      std::back_inserter(gone));
  std::set_difference(after.begin(), after.end(), before.begin(), before.end(),
                      std::back_inserter(added));
  EXPECT_EQ(d.gone, gone);
  EXPECT_EQ(d.added, added);
}

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
  ExpectSetDifferences(before, after, d);
  EXPECT_EQ(d.gone.size(), 35u);   // i % 5 == 1, except the 5 with i % 7 == 3
  EXPECT_EQ(d.added.size(), 24u);  // i % 7 == 3, except the 5 with i % 5 == 1
}

// Versions of a SharedString list view the same buffers for the entries they
// share; told that both are sorted, the diff merges at once. Entries that are
// equal but in separate buffers must still count as equal.
TEST(DiffLists, KnownSortedSharedEntriesMatchSetDifference) {
  std::vector<std::string> pool, copies;
  for (int i = 0; i < 300; ++i) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "test://mp-0-%05d", i);
    pool.push_back(buf);
    copies.push_back(buf);
  }
  std::vector<std::string_view> before, after;
  for (int i = 0; i < 300; ++i) {
    if (i % 11 != 4) before.push_back(pool[i]);
    // Every third kept entry is the same text in another buffer.
    if (i % 13 != 6) after.push_back(i % 3 == 0 ? std::string_view(copies[i]) : pool[i]);
  }
  ListDiff d = DiffLists(before, after, {.before_sorted = true, .after_sorted = true});
  ExpectSetDifferences(before, after, d);
  EXPECT_EQ(d.gone.size(), 21u);   // i % 13 == 6, except the 2 with i % 11 == 4
  EXPECT_EQ(d.added.size(), 25u);  // i % 11 == 4, except the 2 with i % 13 == 6
}

// Unsorted lists said to be unsorted still take the general path.
TEST(DiffLists, UnknownOrderStillSortsReorderedLists) {
  ListDiff d = DiffLists({"c", "a", "b"}, {"b", "d", "c"}, {.before_sorted = false});
  EXPECT_EQ(d.gone, (Views{"a"}));
  EXPECT_EQ(d.added, (Views{"d"}));
}

// DiffShared: entries shared between versions settle by address; an entry
// with the same text in another buffer still counts as equal, and one text
// in two buffers is reported once, from its own list.
TEST(DiffShared, KnownSortedListsGiveTheSetDifferences) {
  std::vector<SharedString> pool, copies;
  for (int i = 0; i < 300; ++i) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "test://mp-0-%05d", i);
    pool.emplace_back(std::string(buf));
    copies.emplace_back(std::string(buf));
  }
  std::vector<const SharedString*> before, after;
  for (int i = 0; i < 300; ++i) {
    if (i % 11 != 4) before.push_back(&pool[i]);
    if (i % 13 != 6) after.push_back(i % 3 == 0 ? &copies[i] : &pool[i]);
  }
  ListDiff d = DiffShared(before, after, {.before_sorted = true, .after_sorted = true});
  Views bv, av;
  for (const SharedString* s : before) bv.push_back(*s);
  for (const SharedString* s : after) av.push_back(*s);
  ExpectSetDifferences(bv, av, d);
  EXPECT_EQ(d.gone.size(), 21u);
  EXPECT_EQ(d.added.size(), 25u);
  EXPECT_EQ(d.added.front(), "test://mp-0-00004");
  EXPECT_EQ(d.added.front().data(), pool[4].data());
}

TEST(DiffShared, ListsNotKnownSortedTakeTheGeneralPath) {
  const SharedString a("a"), b("b"), c("c"), dd("d");
  ListDiff d = DiffShared({&c, &a, &b}, {&b, &dd, &c}, {.before_sorted = false});
  EXPECT_EQ(d.gone, (Views{"a"}));
  EXPECT_EQ(d.added, (Views{"d"}));
}

// Lists in no known order (a regional MIG's, zone by zone) take a hashed
// join: shuffled, with repeated texts and equal texts in separate buffers,
// the answer must still be the sorted, unique set differences.
TEST(DiffShared, UnsortedListsWithRepeatsAndCopiesGiveTheSetDifferences) {
  std::vector<SharedString> pool, copies;
  for (int i = 0; i < 500; ++i) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "gce://p/zone-%d/mp-0-%05d", i % 3, i);
    pool.emplace_back(std::string(buf));
    copies.emplace_back(std::string(buf));
  }
  std::vector<const SharedString*> before, after;
  for (int k = 0; k < 500; ++k) {
    const int i = (k * 7) % 500;  // a fixed shuffle
    if (i % 11 != 4) before.push_back(&pool[i]);
    if (i % 13 != 6) after.push_back(i % 3 == 0 ? &copies[i] : &pool[i]);
    if (i % 17 == 0) after.push_back(&copies[i]);  // the same text again
  }
  ListDiff d = DiffShared(before, after, {.before_sorted = false, .after_sorted = false});
  Views bv, av;
  for (const SharedString* s : before) bv.push_back(*s);
  for (const SharedString* s : after) av.push_back(*s);
  std::sort(bv.begin(), bv.end());
  std::sort(av.begin(), av.end());
  av.erase(std::unique(av.begin(), av.end()), av.end());
  ExpectSetDifferences(bv, av, d);
  // gone: the 35 with i % 13 == 6 still in before, less 357 (repeated);
  // added: the 46 with i % 11 == 4, less 279 and 422 (absent from after).
  EXPECT_EQ(d.gone.size(), 34u);
  EXPECT_EQ(d.added.size(), 44u);
  // A list written back unchanged shares every buffer: nothing changed.
  ListDiff same = DiffShared(before, before, {});
  EXPECT_TRUE(same.gone.empty() && same.added.empty());
}

}  // namespace
}  // namespace mpsim
