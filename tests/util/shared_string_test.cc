#include "util/shared_string.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "api/objects.h"

namespace mpsim {
namespace {

TEST(SharedString, CopiesShareOneBuffer) {
  const SharedString a(std::string("aws:///us-east-1a/i-0000000000000001a"));
  const SharedString b = a;  // NOLINT: the copy is the point
  EXPECT_EQ(a.data(), b.data()) << "a copy must not copy the bytes";
  EXPECT_EQ(b, "aws:///us-east-1a/i-0000000000000001a");
}

TEST(SharedString, ComparesByValueWithEveryStringKind) {
  const SharedString a("gce://p/z/vm-1");
  const SharedString same_bytes(std::string("gce://p/z/vm-1"));
  ASSERT_NE(a.data(), same_bytes.data());
  EXPECT_EQ(a, same_bytes) << "equal bytes in separate buffers are equal";
  EXPECT_EQ(a, std::string("gce://p/z/vm-1"));
  EXPECT_EQ(a, std::string_view("gce://p/z/vm-1"));
  EXPECT_NE(a, SharedString("gce://p/z/vm-2"));
  EXPECT_LT(a, SharedString("gce://p/z/vm-2"));
  EXPECT_GT(a, std::string("gce://p/z/vm-0"));
}

TEST(SharedString, EmptyIsTheEmptyString) {
  const SharedString none;
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none.size(), 0u);
  EXPECT_EQ(none, "");
  EXPECT_EQ(none, SharedString(std::string()));
  EXPECT_LT(none, SharedString("a"));
}

TEST(SharedString, ReadsAsConstStdString) {
  const SharedString a("test://mp-0-00001");
  const std::string& s = a;  // binds to the shared buffer, no temporary
  EXPECT_EQ(&s, &a.str());
  const std::string_view v = a;
  EXPECT_EQ(v.data(), a.data());
}

TEST(SharedString, OutlivesTheOriginalAndAssignmentReleases) {
  SharedString copy;
  {
    const SharedString original("azure:///subscriptions/s/vm-1");
    copy = original;
  }
  EXPECT_EQ(copy, "azure:///subscriptions/s/vm-1");
  copy = SharedString("other");
  EXPECT_EQ(copy, "other");
  SharedString moved = std::move(copy);
  EXPECT_EQ(moved, "other");
}

// Sweeps run seeds in threads; copies made and dropped on two threads at
// once must keep the count right (ASan reports a leak or a double free).
TEST(SharedString, CountSurvivesCopiesOnTwoThreads) {
  const SharedString s("shared across threads");
  auto churn = [&s] {
    std::vector<SharedString> copies;
    for (int i = 0; i < 10000; ++i) copies.push_back(s);
  };
  std::thread t(churn);
  churn();
  t.join();
  EXPECT_EQ(s, "shared across threads");
}

// An immortal string is never counted: copies made and dropped on two
// threads leave it readable (ASan would see a free), and they share it.
// Held in a static, as immortals are meant to be: a local one would be the
// leak LeakSanitizer reports.
TEST(SharedString, ImmortalCopiesShareItAndNeverFreeIt) {
  static const SharedString key = SharedString::Immortal("cluster.x-k8s.io/cluster-name");
  auto churn = [] {
    for (int i = 0; i < 1000; ++i) {
      SharedString copy = key;
      EXPECT_EQ(copy.data(), key.data());
    }
  };
  std::thread t(churn);
  churn();
  t.join();
  EXPECT_EQ(key, "cluster.x-k8s.io/cluster-name");
}

// A run's arena owns the strings Pinned makes while it is installed; without
// one, Pinned makes an ordinary counted string.
TEST(StringArena, PinnedStringsBelongToTheInnermostArena) {
  SharedString outside = SharedString::Pinned("test://mp-0-00001");
  {
    StringArena run;
    SharedString a = SharedString::Pinned("test://mp-0-00002");
    {
      StringArena inner;
      SharedString b = SharedString::Pinned("uid-2");
      EXPECT_EQ(inner.size(), 1u);
      EXPECT_EQ(b, "uid-2");
    }
    SharedString c = SharedString::Pinned("uid-3");
    EXPECT_EQ(run.size(), 2u) << "a and c; b went to the inner arena";
    SharedString copy = a;
    EXPECT_EQ(copy.identity(), a.identity());
    // One buffer per text: the same providerID made twice compares by address.
    EXPECT_EQ(SharedString::Pinned("test://mp-0-00002").identity(), a.identity());
    EXPECT_EQ(run.size(), 2u);
    EXPECT_EQ(copy, "test://mp-0-00002");
    EXPECT_EQ(SharedString::Pinned("").identity(), nullptr);
  }
  EXPECT_EQ(outside, "test://mp-0-00001");
}

// Copies of a pinned string may outlive its arena as long as nobody reads
// them: destroying one touches nothing (the sanitizer run would see a read).
TEST(StringArena, CopiesMayBeDestroyedAfterTheArena) {
  std::vector<SharedString> kept;
  {
    StringArena run;
    for (int i = 0; i < 100; ++i) kept.push_back(SharedString::Pinned("node-" + std::to_string(i)));
    std::vector<SharedString> copies = kept;
    EXPECT_EQ(copies[42], "node-42");
  }
  kept.clear();
  EXPECT_TRUE(kept.empty());
}

// Strings pinned one after another lie side by side, so a pass that reads the
// uids or providerIDs of Nodes in the order they were made shares lines
// (seventeenth round of docs/PERFORMANCE.md). Texts longer than the string's
// inline buffer keep their bytes elsewhere; the header every pass reads is here.
TEST(StringArena, StringsPinnedInTurnLieSideBySide) {
  StringArena run;
  std::vector<SharedString> ids;
  for (int i = 0; i < 1000; ++i) {
    ids.push_back(SharedString::Pinned("test:///mp-0-" + std::to_string(100000 + i)));
  }
  for (size_t i = 1; i < ids.size(); ++i) {
    const auto gap = reinterpret_cast<uintptr_t>(ids[i].identity()) -
                     reinterpret_cast<uintptr_t>(ids[i - 1].identity());
    EXPECT_GT(gap, 0u) << i;
    EXPECT_LE(gap, 64u) << i << ": two neighbours' headers a cache line apart or more";
  }
  EXPECT_EQ(ids[999], "test:///mp-0-100999");
}

// The cached hash is HashBytes of the text, for copies, equal strings in
// other buffers and the empty string alike, so maps may mix the two.
TEST(SharedString, HashIsTheHashOfItsBytes) {
  const SharedString a("aws:///us-east-1a/i-000000000000021c0");
  const SharedString copy = a;
  const SharedString other(std::string("aws:///us-east-1a/i-000000000000021c0"));
  EXPECT_EQ(a.Hash(), HashBytes("aws:///us-east-1a/i-000000000000021c0"));
  EXPECT_EQ(copy.Hash(), a.Hash());
  EXPECT_EQ(other.Hash(), a.Hash());
  EXPECT_EQ(SharedString().Hash(), HashBytes(""));
  EXPECT_NE(SharedString("mp-0-00001").Hash(), SharedString("mp-0-00002").Hash());
}

TEST(ProviderIDList, VersionsShareTheirEntries) {
  ProviderIDList v1 = std::vector<std::string>{"test://a", "test://b"};
  ProviderIDList v2 = v1;
  v2.push_back("test://c");
  ASSERT_EQ(v2.size(), 3u);
  EXPECT_EQ(v1.size(), 2u) << "a change detaches the copy";
  EXPECT_EQ(v1[0].data(), v2[0].data()) << "but the entries stay shared";
  EXPECT_EQ(v2, (std::vector<std::string>{"test://a", "test://b", "test://c"}));
  EXPECT_FALSE(v1 == (std::vector<std::string>{"test://a"}));
}

// The order is worked out once per list version and kept with it; a change
// through Mutable forgets it, and copies share it.
TEST(ProviderIDList, StrictOrderIsKnownPerVersion) {
  ProviderIDList ids = std::vector<std::string>{"test://a", "test://b", "test://c"};
  EXPECT_TRUE(IdsStrictlySorted(ids));
  const ProviderIDList copy = ids;
  ids.push_back("test://0");
  EXPECT_FALSE(IdsStrictlySorted(ids)) << "the cached answer must not survive a change";
  EXPECT_TRUE(IdsStrictlySorted(copy)) << "the copy kept its own version";
  EXPECT_FALSE(IdsStrictlySorted(ProviderIDList{"test://a", "test://a"})) << "equal is not strict";
  EXPECT_TRUE(IdsStrictlySorted(ProviderIDList{}));
}

TEST(ProviderIDList, KnownSortedListSkipsTheCheckUntilChanged) {
  ProviderIDList ids =
      ProviderIDList::KnownStrictlySorted({"test://mp-0-00001", "test://mp-0-00002"}, IdText());
  EXPECT_TRUE(IdsStrictlySorted(ids));
  ids.push_back("test://mp-0-00000");
  EXPECT_FALSE(IdsStrictlySorted(ids)) << "a change forgets what the maker knew";
}

TEST(NodeReferences, StrictOrderIsByName) {
  SharedList<NodeReference> refs =
      std::vector<NodeReference>{{.name = "n-1", .uid = "z"}, {.name = "n-2", .uid = "a"}};
  EXPECT_TRUE(NamesStrictlySorted(refs)) << "uids do not count";
  refs.push_back({.name = "n-0"});
  EXPECT_FALSE(NamesStrictlySorted(refs));
}

// Derived keeps one answer per version, good only against the base it was
// worked out from: another base, a base changed in place, or a change to
// the list itself each make it work again.
const char kTag = 0, kOtherTag = 0;  // questions, named by their addresses
TEST(SharedList, DerivedIsKeptPerVersionAndBase) {
  int computed = 0;
  auto size_of = [&](const SharedList<int>& list, const SharedList<int>& base,
                     const void* tag = &kTag) {
    return *list.Derived<size_t>(tag, base, [&] { return ++computed, list.size(); });
  };
  SharedList<int> base = std::vector<int>{1, 2};
  SharedList<int> list = std::vector<int>{1, 2, 3};
  EXPECT_EQ(size_of(list, base), 3u);
  EXPECT_EQ(size_of(SharedList<int>(list), base), 3u) << "a copy shares the answer";
  EXPECT_EQ(computed, 1);
  size_of(list, base, &kOtherTag);
  EXPECT_EQ(computed, 2) << "another question";
  size_of(list, base);
  EXPECT_EQ(computed, 3) << "one answer per version: the other question took its place";
  size_of(list, SharedList<int>(std::vector<int>{1, 2}));
  EXPECT_EQ(computed, 4) << "an equal base in another buffer is another version";
  size_of(list, base);
  const std::vector<int>* const base_vector = &base.vec();
  base.push_back(9);
  ASSERT_EQ(&base.vec(), base_vector) << "no copy shares it: changed in place";
  size_of(list, base);
  EXPECT_EQ(computed, 6) << "a base changed in place is no longer the same version";
  size_of(list, SharedList<int>());
  size_of(list, SharedList<int>());
  EXPECT_EQ(computed, 7) << "an empty base is a base like any other";
  {
    SharedList<int> gone = std::vector<int>{5};
    size_of(list, gone);
  }
  size_of(list, SharedList<int>());
  EXPECT_EQ(computed, 9) << "a base that died is not the empty list";
  list.push_back(4);
  EXPECT_EQ(size_of(list, SharedList<int>()), 4u) << "the list changed in place";
  EXPECT_EQ(computed, 10);
}

// Equal texts interned share one buffer, wherever the text came from; other
// texts do not, and an interned string still equals a plain one by value.
TEST(SharedString, InternedTextsShareOneBuffer) {
  const std::string name = std::string("mp-") + "0";
  const SharedString a = SharedString::Interned("mp-0");
  const SharedString b = SharedString::Interned(name);
  EXPECT_EQ(a.identity(), b.identity());
  EXPECT_NE(a.identity(), SharedString::Interned("mp-1").identity());
  EXPECT_NE(a.identity(), SharedString("mp-0").identity());
  EXPECT_EQ(a, SharedString("mp-0"));
  EXPECT_TRUE(SharedString::Interned("").empty());
}

}  // namespace
}  // namespace mpsim
