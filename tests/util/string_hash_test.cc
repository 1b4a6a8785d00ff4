// The hash of the hot maps' string keys: equal strings agree, and strings
// that differ anywhere (in the last of their 8-byte words too) differ.
#include "util/string_hash.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace mpsim {
namespace {

TEST(StringHash, EqualStringsHashEqualWhereverTheyLive) {
  const std::string a = "aws:///us-east-1a/i-0123456789abcdef0";
  const std::string b = a;
  EXPECT_EQ(HashBytes(a), HashBytes(b));
  EXPECT_EQ(StringHash{}(std::string_view(a)), HashBytes(b));
}

TEST(StringHash, ProviderIDsOfOnePoolAllHashApart) {
  std::set<uint64_t> seen;
  for (int i = 0; i < 10000; ++i) {
    char id[32];
    std::snprintf(id, sizeof id, "test:///mp-0-%05d", i);
    seen.insert(HashBytes(id));
  }
  EXPECT_EQ(seen.size(), 10000u);
}

TEST(StringHash, LengthAndTailBytesCount) {
  EXPECT_NE(HashBytes("abcdefgh"), HashBytes("abcdefghi"));
  EXPECT_NE(HashBytes("abcdefghij"), HashBytes("abcdefghik"));
  EXPECT_NE(HashBytes(std::string_view("a\0", 2)), HashBytes("a"));
  EXPECT_NE(HashBytes(""), HashBytes(std::string_view("\0", 1)));
}

// Same buffer or same bytes: equal; a prefix or one byte off: not.
TEST(StringEq, ComparesBytesWhenTheBuffersDiffer) {
  const std::string a = "aws:///us-east-1a/i-0123456789";
  const std::string b = a;
  EXPECT_TRUE(StringEq{}(a, a));
  EXPECT_TRUE(StringEq{}(a, b));
  EXPECT_FALSE(StringEq{}(a, std::string_view(a).substr(0, a.size() - 1)));
  std::string c = a;
  c.back() = 'x';
  EXPECT_FALSE(StringEq{}(a, c));
}

// Every length up to 24 crosses the inline paths (1-3, 4-7, 8-16) and the
// memcmp one: equal copies compare equal, and one byte changed at any
// position makes them differ, whichever of the overlapping loads reads it.
TEST(BytesEqual, EveryLengthAndEveryPositionOfADifference) {
  for (size_t n = 0; n <= 40; ++n) {
    const std::string a(n, 'q');
    const std::string b = a;  // another buffer
    EXPECT_TRUE(BytesEqual(a, b)) << n;
    for (size_t at = 0; at < n; ++at) {
      std::string c = a;
      c[at] = 'r';
      EXPECT_FALSE(BytesEqual(a, c)) << n << " at " << at;
      EXPECT_FALSE(BytesEqual(c, a)) << n << " at " << at;
    }
  }
}

TEST(BytesEqual, LengthsMustAgree) {
  EXPECT_FALSE(BytesEqual("True", "Tru"));
  EXPECT_FALSE(BytesEqual("", "a"));
  EXPECT_TRUE(BytesEqual("", ""));
  EXPECT_TRUE(BytesEqual("MachinePool", std::string("MachinePool")));
}

}  // namespace
}  // namespace mpsim
