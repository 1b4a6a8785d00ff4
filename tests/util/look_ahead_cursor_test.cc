// The cursor that walks one list beside another: a find looks only a window
// ahead and moves past what it finds; a miss leaves the cursor where it was.
#include "util/look_ahead_cursor.h"

#include <gtest/gtest.h>

#include <vector>

namespace mpsim {
namespace {

using Cursor = LookAheadCursor<int>;

auto Is(int x) {
  return [x](int e) { return e == x; };
}

TEST(LookAheadCursor, FindsWithinTheWindowAndMovesPastIt) {
  const std::vector<int> v = {10, 11, 12, 13, 14, 15};
  Cursor c(v);
  EXPECT_EQ(c.Find(4, Is(12)), 2u);
  EXPECT_EQ(c.Find(4, Is(11)), Cursor::kNone);  // passed over: never looked at again
  EXPECT_EQ(c.Find(1, Is(13)), 3u);
  EXPECT_EQ(c.Find(4, Is(15)), 5u);
  EXPECT_EQ(c.Next(), nullptr);
}

TEST(LookAheadCursor, AMissBeyondTheWindowLeavesTheCursor) {
  const std::vector<int> v = {10, 11, 12, 13, 14, 15};
  Cursor c(v);
  EXPECT_EQ(c.Find(3, Is(13)), Cursor::kNone);  // four places ahead
  EXPECT_EQ(c.Find(4, Is(13)), 3u);
  ASSERT_NE(c.Next(), nullptr);
  EXPECT_EQ(*c.Next(), 15);
}

TEST(LookAheadCursor, NextWalksFromTheCursorToTheEnd) {
  const std::vector<int> v = {1, 2, 3};
  Cursor c(v);
  EXPECT_EQ(c.Find(8, Is(1)), 0u);
  std::vector<int> rest;
  while (const int* e = c.Next()) rest.push_back(*e);
  EXPECT_EQ(rest, (std::vector<int>{2, 3}));
  EXPECT_EQ(c.Find(8, Is(3)), Cursor::kNone);
}

TEST(LookAheadCursor, AnEmptyListFindsNothing) {
  const std::vector<int> v;
  Cursor c(v);
  EXPECT_EQ(c.Find(4, Is(1)), Cursor::kNone);
  EXPECT_EQ(c.Next(), nullptr);
}

}  // namespace
}  // namespace mpsim
