// SharedList::Total and TotalFrom: a sum over a list version, kept with it,
// and worked out from a base version by reading only what a write changed.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "util/shared_list.h"
#include "util/shared_string.h"

namespace mpsim {
namespace {

using Ids = SharedList<SharedString>;

// Counts the entries it reads, so a test can tell a kept entry was not read.
struct Length {
  int* reads;
  uint64_t operator()(const SharedString& s) const {
    ++*reads;
    return s.size();
  }
};
bool SameIdBuffer(const SharedString& a, const SharedString& b) {
  return a.identity() == b.identity();
}

uint64_t Sum(const std::vector<SharedString>& v) {
  uint64_t n = 0;
  for (const SharedString& s : v) n += s.size();
  return n;
}

TEST(SharedListTotal, IsWorkedOutOncePerVersion) {
  int reads = 0;
  const Ids ids = std::vector<SharedString>{"a", "bb", "ccc"};
  EXPECT_EQ(ids.Total(Length{&reads}), 6u);
  EXPECT_EQ(ids.Total(Length{&reads}), 6u);
  EXPECT_EQ(reads, 3);
  Ids copy = ids;  // shares the version, and its total
  EXPECT_EQ(copy.Total(Length{&reads}), 6u);
  EXPECT_EQ(reads, 3);
  copy.push_back("dddd");  // a new version: worked out again
  EXPECT_EQ(copy.Total(Length{&reads}), 10u);
  EXPECT_EQ(Ids().Total(Length{&reads}), 0u);
}

// A version that adds two entries to a 1,000-entry base reads those two.
TEST(SharedListTotal, FromABaseReadsOnlyTheChangedEntries) {
  std::vector<SharedString> v;
  for (int i = 0; i < 1000; ++i) v.emplace_back("test://mp-0-" + std::to_string(i));
  const Ids base = v;
  int reads = 0;
  const uint64_t base_total = base.Total(Length{&reads});
  v.insert(v.begin() + 500, SharedString("test://new-a"));
  v.emplace_back("test://new-bb");
  v.erase(v.begin() + 10);
  const Ids next = v;
  reads = 0;
  const uint64_t total = next.TotalFrom(base, Length{&reads}, SameIdBuffer);
  EXPECT_EQ(total, base_total + 12 + 13 - std::string("test://mp-0-10").size());
  EXPECT_EQ(total, Sum(v));
  EXPECT_EQ(reads, 3);  // two put in, one taken out
}

// Random edits of random bases agree with the sum of the texts.
TEST(SharedListTotal, FromABaseAgreesWithTheTexts) {
  std::mt19937 rng(11);
  for (int round = 0; round < 2000; ++round) {
    std::vector<SharedString> base_v;
    for (int n = 0; n < static_cast<int>(rng() % 40); ++n) {
      base_v.emplace_back(std::string(1 + rng() % 9, 'x'));
    }
    const Ids base = base_v;
    std::vector<SharedString> v = base_v;
    for (int edit = 0; edit < static_cast<int>(rng() % 12); ++edit) {
      const size_t at = v.empty() ? 0 : rng() % (v.size() + 1);
      switch (rng() % 4) {
        case 0:
          v.insert(v.begin() + at, SharedString(std::string(1 + rng() % 9, 'y')));
          break;
        case 1:
          if (at < v.size()) v.erase(v.begin() + at);
          break;
        case 2:
          if (at + 1 < v.size()) std::swap(v[at], v[at + 1]);
          break;
        default:  // a run taken out, longer than the cursor's window
          v.erase(v.begin() + at, v.begin() + std::min(v.size(), at + 6));
      }
    }
    int reads = 0;
    const Ids next = v;
    ASSERT_EQ(next.TotalFrom(base, Length{&reads}, SameIdBuffer), Sum(v)) << "round " << round;
  }
}

}  // namespace
}  // namespace mpsim
