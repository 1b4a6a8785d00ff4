#include "sim/list_diff.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <iterator>
#include <memory>
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

// The SharedStrings of `texts`, each in its own buffer, and their addresses.
struct Texts {
  explicit Texts(std::initializer_list<const char*> texts) {
    for (const char* t : texts) owned.emplace_back(std::string(t));
    for (const SharedString& s : owned) list.push_back(&s);
  }
  Texts(const Texts&) = delete;  // `list` points into this one's `owned`
  Texts& operator=(const Texts&) = delete;
  std::vector<SharedString> owned;
  std::vector<const SharedString*> list;
};

// Edge cases of the hashed path (lists in no known order): empty lists, a
// reorder, and a repeat of an entry that stays are none of them a change.
TEST(DiffShared, UnsortedEdgeCases) {
  // The answers view the entries' buffers: the Texts must outlive them.
  const Texts bab{"b", "a", "b"}, ba{"b", "a"}, cab{"c", "a", "b"}, bca{"b", "c", "a"};
  EXPECT_EQ(DiffShared({}, bab.list).added, (Views{"a", "b"}));
  EXPECT_EQ(DiffShared(ba.list, {}).gone, (Views{"a", "b"}));
  const ListDiff reordered = DiffShared(cab.list, bca.list);
  EXPECT_TRUE(reordered.gone.empty() && reordered.added.empty());
  const Texts abc{"a", "b", "c"}, abca{"a", "b", "c", "a"};
  const ListDiff repeated = DiffShared(abc.list, abca.list);
  EXPECT_TRUE(repeated.gone.empty() && repeated.added.empty());
  const Texts ab{"a", "b"}, abfe{"a", "b", "f", "e"};
  const ListDiff appended = DiffShared(ab.list, abfe.list);
  EXPECT_TRUE(appended.gone.empty());
  EXPECT_EQ(appended.added, (Views{"e", "f"}));
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

// The informer's index and the pool observer ask the same question of each
// MachinePool write: the second gets the first's answer.
TEST(DiffNodeRefNames, IsWorkedOutOncePerPairOfVersions) {
  const SharedList<NodeReference> v1 = std::vector<NodeReference>{{.name = "n-2"}, {.name = "n-0"}};
  SharedList<NodeReference> v2 = v1;
  v2.push_back({.name = "n-1"});
  const std::shared_ptr<const ListDiff> first = DiffNodeRefNames(v1, v2);
  EXPECT_EQ(first->added, (Views{"n-1"}));
  EXPECT_TRUE(first->gone.empty());
  EXPECT_EQ(DiffNodeRefNames(v1, v2), first) << "the same answer, not worked out again";
  const std::shared_ptr<const ListDiff> from_none = DiffNodeRefNames({}, v2);
  EXPECT_NE(from_none, first);
  EXPECT_EQ(from_none->added, (Views{"n-0", "n-1", "n-2"}));
  EXPECT_EQ(DiffNodeRefNames(v2, v1)->gone, (Views{"n-1"}));
}

}  // namespace
}  // namespace mpsim
