#include "sim/event_queue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "sim/random.h"

namespace mpsim {
namespace {

// Pops and runs every pending event.
void Drain(EventQueue& q) {
  EventQueue::Callback cb;
  while (!q.Empty()) {
    q.Pop(&cb);
    cb();
  }
}

EventQueue::Callback Label(std::vector<int>* out, int label) {
  return [out, label] { out->push_back(label); };
}

TEST(EventQueueTest, EmptyAtStart) {
  EventQueue q;
  EXPECT_TRUE(q.Empty());
  EXPECT_EQ(q.Size(), 0u);
}

TEST(EventQueueTest, PopsInTimeOrder) {
  EventQueue q;
  std::vector<int> ran;
  q.Push(30, Label(&ran, 3));
  q.Push(10, Label(&ran, 1));
  q.Push(20, Label(&ran, 2));
  EXPECT_EQ(q.Size(), 3u);
  EXPECT_EQ(q.NextTime(), 10);
  EventQueue::Callback cb;
  EXPECT_EQ(q.Pop(&cb), 10);
  cb();
  EXPECT_EQ(q.Pop(&cb), 20);
  cb();
  EXPECT_EQ(q.Pop(&cb), 30);
  cb();
  EXPECT_EQ(ran, (std::vector<int>{1, 2, 3}));
  EXPECT_TRUE(q.Empty());
}

TEST(EventQueueTest, TiesRunInPushOrder) {
  EventQueue q;
  std::vector<int> ran;
  for (int i = 0; i < 100; ++i) q.Push(i % 2 == 0 ? 5 : 7, Label(&ran, i));
  Drain(q);
  ASSERT_EQ(ran.size(), 100u);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(ran[i], 2 * i);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(ran[50 + i], 2 * i + 1);
}

TEST(EventQueueTest, IdsAreNeverZeroAndDistinct) {
  EventQueue q;
  const EventId a = q.Push(1, [] {});
  const EventId b = q.Push(1, [] {});
  EXPECT_NE(a, 0u);
  EXPECT_NE(b, 0u);
  EXPECT_NE(a, b);
  EXPECT_FALSE(q.Cancel(0));
}

TEST(EventQueueTest, CancelSkipsEvent) {
  EventQueue q;
  std::vector<int> ran;
  q.Push(10, Label(&ran, 1));
  const EventId id = q.Push(20, Label(&ran, 2));
  q.Push(30, Label(&ran, 3));
  EXPECT_TRUE(q.Cancel(id));
  EXPECT_EQ(q.Size(), 2u);
  EXPECT_FALSE(q.Cancel(id));  // twice
  Drain(q);
  EXPECT_EQ(ran, (std::vector<int>{1, 3}));
}

TEST(EventQueueTest, CancelEarliestMovesNextTime) {
  EventQueue q;
  const EventId id = q.Push(10, [] {});
  q.Push(20, [] {});
  EXPECT_TRUE(q.Cancel(id));
  EXPECT_EQ(q.NextTime(), 20);
}

TEST(EventQueueTest, CancelLastMakesEmpty) {
  EventQueue q;
  const EventId id = q.Push(10, [] {});
  EXPECT_TRUE(q.Cancel(id));
  EXPECT_TRUE(q.Empty());
  q.Push(5, [] {});
  EXPECT_EQ(q.NextTime(), 5);
}

TEST(EventQueueTest, CancelAfterPopReturnsFalse) {
  EventQueue q;
  const EventId id = q.Push(10, [] {});
  EventQueue::Callback cb;
  q.Pop(&cb);
  EXPECT_FALSE(q.Cancel(id));
  // The slot is reused by the next push; the old id must not reach it.
  const EventId next = q.Push(11, [] {});
  EXPECT_FALSE(q.Cancel(id));
  EXPECT_TRUE(q.Cancel(next));
}

TEST(EventQueueTest, CancelReleasesCapturedState) {
  EventQueue q;
  auto token = std::make_shared<int>(1);
  const EventId id = q.Push(10, [token] {});
  q.Push(20, [] {});
  EXPECT_EQ(token.use_count(), 2);
  q.Cancel(id);
  EXPECT_EQ(token.use_count(), 1);
}

TEST(EventQueueTest, CallbackMayPushDuringDrain) {
  EventQueue q;
  std::vector<int> ran;
  q.Push(10, [&] {
    ran.push_back(1);
    q.Push(10, Label(&ran, 2));  // same time, pushed later: runs next
  });
  q.Push(15, Label(&ran, 3));
  Drain(q);
  EXPECT_EQ(ran, (std::vector<int>{1, 2, 3}));
}

// Random push/cancel/pop against a std::map keyed by (time, push index), the
// reference model of (time, sequence) order.
// Random pushes, cancels of any id ever returned, peeks and pops, checked
// step by step against an ordered map of (time, push label). With
// `back_in_time`, pushes may land before the last time popped or peeked.
void CheckAgainstModel(uint64_t seed, bool back_in_time) {
  Rng rng(seed);
  EventQueue q;
  std::map<std::pair<Time, int>, EventId> model;
  std::vector<std::pair<Time, int>> keys;  // every key ever pushed, by label
  std::vector<EventId> ids;                // every id ever returned, by label
  int popped_label = -1;
  Time now = 0;
  for (int step = 0; step < 200000; ++step) {
    const uint64_t op = rng.Below(10);
    if (op < 5 || model.empty()) {
      const Time base = back_in_time ? std::max<Time>(0, now - 500) : now;
      const Time at = base + static_cast<Time>(rng.Below(1000));
      const int label = static_cast<int>(keys.size());
      ids.push_back(q.Push(at, [&popped_label, label] { popped_label = label; }));
      keys.push_back({at, label});
      model[{at, label}] = ids.back();
    } else if (op < 7) {
      // Any id ever returned: live, already run, or already cancelled.
      const size_t label = rng.Below(keys.size());
      const bool live = model.erase(keys[label]) == 1;
      ASSERT_EQ(q.Cancel(ids[label]), live);
    } else {
      ASSERT_EQ(q.NextTime(), model.begin()->first.first);
      EventQueue::Callback cb;
      now = q.Pop(&cb);
      cb();
      ASSERT_EQ(now, model.begin()->first.first);
      ASSERT_EQ(popped_label, model.begin()->first.second);
      model.erase(model.begin());
    }
    ASSERT_EQ(q.Size(), model.size());
  }
}

TEST(EventQueueTest, MatchesReferenceModel) { CheckAgainstModel(2024, false); }

// The radix layout keeps a side heap for pushes before its base: they must
// still come out in (time, push order) among all the others.
TEST(EventQueueTest, MatchesReferenceModelWhenPushesGoBackInTime) { CheckAgainstModel(99, true); }

// A peek past a horizon moves the queue's base; an event pushed afterwards
// at an earlier time (the next Run of a loop) still comes first, and equal
// times keep push order on both sides of the base.
TEST(EventQueueTest, PushBeforeAPeekedTimeComesFirst) {
  EventQueue q;
  std::vector<int> ran;
  q.Push(50, Label(&ran, 1));
  EXPECT_EQ(q.NextTime(), 50);
  q.Push(10, Label(&ran, 2));
  q.Push(50, Label(&ran, 3));
  q.Push(10, Label(&ran, 4));
  q.Push(30, Label(&ran, 5));
  EXPECT_EQ(q.NextTime(), 10);
  Drain(q);
  EXPECT_EQ(ran, (std::vector<int>{2, 4, 5, 1, 3}));
}

TEST(EventQueueTest, StaleIdsNeverCancel) {
  Rng rng(7);
  EventQueue q;
  std::vector<EventId> cancelled;
  EventQueue::Callback cb;
  for (int round = 0; round < 1000; ++round) {
    const EventId a = q.Push(static_cast<Time>(rng.Below(100)), [] {});
    q.Push(static_cast<Time>(rng.Below(100)), [] {});
    q.Push(static_cast<Time>(rng.Below(100)), [] {});
    ASSERT_TRUE(q.Cancel(a));
    cancelled.push_back(a);
    q.Pop(&cb);  // frees slots so that later pushes reuse them
  }
  for (const EventId id : cancelled) EXPECT_FALSE(q.Cancel(id));
  EXPECT_EQ(q.Size(), 1000u);
}

TEST(EventQueueTest, ManyCancelsKeepOrder) {
  EventQueue q;
  std::vector<int> ran;
  std::vector<EventId> ids;
  for (int i = 0; i < 10000; ++i) ids.push_back(q.Push(10000 - i, Label(&ran, i)));
  for (int i = 0; i < 10000; ++i) {
    if (i % 10 != 0) {
      ASSERT_TRUE(q.Cancel(ids[i]));
    }
  }
  EXPECT_EQ(q.Size(), 1000u);
  Drain(q);
  ASSERT_EQ(ran.size(), 1000u);
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(ran[i], 9990 - 10 * i);
}

}  // namespace
}  // namespace mpsim
