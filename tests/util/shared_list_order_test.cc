// SharedList::StrictlySortedFrom: the order of a version made from a sorted
// base, settled by the entries' identities where they were neighbours there.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "api/objects.h"
#include "util/shared_list.h"
#include "util/shared_string.h"

namespace mpsim {
namespace {

using Names = SharedList<SharedString>;

const std::string& Text(const SharedString& s) { return s.str(); }
bool SameBuffer(const SharedString& a, const SharedString& b) {
  return a.identity() == b.identity();
}

bool StrictlyIncreasing(const std::vector<SharedString>& v) {
  for (size_t i = 0; i + 1 < v.size(); ++i) {
    if (!(v[i].str() < v[i + 1].str())) return false;
  }
  return true;
}

std::string Name(int n) {
  std::string s = std::to_string(n);
  return "node-" + std::string(6 - s.size(), '0') + s;  // sorts as the number does
}

// Random edits of random bases, against the order worked out from the texts.
TEST(SharedListOrder, FromABaseAgreesWithTheTexts) {
  std::mt19937 rng(7);
  for (int round = 0; round < 2000; ++round) {
    std::vector<SharedString> base_v;
    for (int n = 0; n < static_cast<int>(rng() % 30); ++n) base_v.emplace_back(Name(3 * n + 1));
    if (rng() % 8 == 0 && base_v.size() > 1) std::swap(base_v[0], base_v[1]);  // unsorted base
    const Names base = base_v;
    std::vector<SharedString> v = base_v;  // the same buffers, as a later version has
    for (int edit = 0; edit < static_cast<int>(rng() % 6); ++edit) {
      const size_t at = v.empty() ? 0 : rng() % (v.size() + 1);
      switch (rng() % 4) {
        case 0:  // a new entry, in order or not, maybe equal to a neighbour's text
          v.insert(v.begin() + at, SharedString(Name(static_cast<int>(rng() % 95))));
          break;
        case 1:
          if (at < v.size()) v.erase(v.begin() + at);
          break;
        case 2:
          if (at + 1 < v.size()) std::swap(v[at], v[at + 1]);
          break;
        default:  // an entry repeated, so the same buffer twice
          if (at < v.size()) v.insert(v.begin() + at, v[at]);
      }
    }
    const Names after = v;
    EXPECT_EQ(after.StrictlySortedFrom(base, Text, SameBuffer), StrictlyIncreasing(v))
        << "round " << round;
  }
}

// A 1,000-entry list that grew by one entry reads the keys of the two pairs
// around it only; one that lost an entry reads the pair that closed the gap.
TEST(SharedListOrder, KeptNeighboursNeedNoKeys) {
  std::vector<SharedString> base_v;
  for (int n = 0; n < 1000; ++n) base_v.emplace_back(Name(2 * n));
  const Names base = base_v;
  ASSERT_TRUE(base.StrictlySorted(Text));
  int reads = 0;
  auto counted = [&](const SharedString& s) -> const std::string& {
    ++reads;
    return s.str();
  };

  std::vector<SharedString> grown = base_v;
  grown.insert(grown.begin() + 500, SharedString(Name(999)));  // between 998 and 1000
  EXPECT_TRUE(Names(grown).StrictlySortedFrom(base, counted, SameBuffer));
  EXPECT_EQ(reads, 4);

  reads = 0;
  std::vector<SharedString> shrunk = base_v;
  shrunk.erase(shrunk.begin() + 300);
  EXPECT_TRUE(Names(shrunk).StrictlySortedFrom(base, counted, SameBuffer));
  EXPECT_EQ(reads, 2);

  reads = 0;
  std::vector<SharedString> wrong = base_v;
  wrong.insert(wrong.begin() + 10, SharedString(Name(5)));  // between 18 and 20
  EXPECT_FALSE(Names(wrong).StrictlySortedFrom(base, counted, SameBuffer));
}

// The answer is kept with the version, as StrictlySorted's is.
TEST(SharedListOrder, AnswerIsKeptAndForgottenOnChange) {
  const Names base = std::vector<SharedString>{"a", "c"};
  Names after = std::vector<SharedString>{base[0], "b", base[1]};
  int reads = 0;
  auto counted = [&](const SharedString& s) -> const std::string& {
    ++reads;
    return s.str();
  };
  EXPECT_TRUE(after.StrictlySortedFrom(base, counted, SameBuffer));
  const int first = reads;
  EXPECT_TRUE(after.StrictlySortedFrom(base, counted, SameBuffer));
  EXPECT_EQ(reads, first) << "asked again, the version's answer is kept";
  after.push_back("a");
  EXPECT_FALSE(after.StrictlySortedFrom(base, counted, SameBuffer));
}

// nodeRefs: names that kept their buffers from the last list are in order
// where they were neighbours; uids do not count.
TEST(SharedListOrder, NodeRefNamesFromTheLastList) {
  const SharedList<NodeReference> last =
      std::vector<NodeReference>{{.name = "n-1", .uid = "b"}, {.name = "n-3", .uid = "a"}};
  SharedList<NodeReference> next =
      std::vector<NodeReference>{last[0], {.name = "n-2", .uid = "z"}, last[1]};
  EXPECT_TRUE(NamesStrictlySortedFrom(next, last));
  const SharedList<NodeReference> out_of_order =
      std::vector<NodeReference>{last[1], {.name = "n-2", .uid = "z"}};
  EXPECT_FALSE(NamesStrictlySortedFrom(out_of_order, last));
}

}  // namespace
}  // namespace mpsim
