// The event loop's budgets: events, a stalled clock, and the polled budget
// (memory) that stop a runaway run cleanly.
#include <gtest/gtest.h>

#include <functional>

#include "sim/event_loop.h"

namespace mpsim {
namespace {

// An event that schedules itself again after `delay`, forever.
void Forever(EventLoop* loop, Duration delay, int* runs) {
  ++*runs;
  loop->After(delay, [loop, delay, runs] { Forever(loop, delay, runs); });
}

TEST(EventLoopLimits, EventBudgetStopsAnEndlessRun) {
  EventLoop loop;
  int runs = 0;
  loop.At(0, [&] { Forever(&loop, kSecond, &runs); });
  EventLoop::Limits limits;
  limits.max_events = 100;
  EventLoop::Stats s = loop.Run(kHour * 24, limits);
  EXPECT_EQ(s.reason, EventLoop::StopReason::kEventBudget);
  EXPECT_EQ(s.events, 100u);
  EXPECT_EQ(runs, 100);
  EXPECT_EQ(s.end, 99 * kSecond);
}

TEST(EventLoopLimits, ZeroDelayCycleIsAStalledClock) {
  EventLoop loop;
  int runs = 0;
  loop.At(5 * kSecond, [&] { Forever(&loop, 0, &runs); });
  EventLoop::Limits limits;
  limits.max_events_per_instant = 1000;
  EventLoop::Stats s = loop.Run(kHour, limits);
  EXPECT_EQ(s.reason, EventLoop::StopReason::kStalledClock);
  EXPECT_EQ(s.events, 1000u);
  EXPECT_EQ(s.end, 5 * kSecond);
}

TEST(EventLoopLimits, BusyInstantsThatMoveOnAreNotAStall) {
  EventLoop loop;
  int ran = 0;
  // 1000 events at each of three instants: each instant is exactly at the limit.
  for (Time t : {Time{0}, kSecond, 2 * kSecond}) {
    for (int i = 0; i < 1000; ++i) loop.At(t, [&] { ++ran; });
  }
  EventLoop::Limits limits;
  limits.max_events_per_instant = 1000;
  EventLoop::Stats s = loop.Run(kHour, limits);
  EXPECT_EQ(s.reason, EventLoop::StopReason::kQueueEmpty);
  EXPECT_EQ(ran, 3000);
}

TEST(EventLoopLimits, PolledBudgetIsCheckedFirstAndEveryPollInterval) {
  EventLoop loop;
  int runs = 0;
  loop.At(0, [&] { Forever(&loop, kMillisecond, &runs); });
  int polls = 0;
  EventLoop::Limits limits;
  limits.over_budget = [&] { return ++polls == 3; };
  EventLoop::Stats s = loop.Run(kHour * 24 * 30, limits);
  EXPECT_EQ(s.reason, EventLoop::StopReason::kPollBudget);
  EXPECT_EQ(polls, 3);
  EXPECT_EQ(s.events, 2 * EventLoop::kPollEvery);
}

TEST(EventLoopLimits, OverBudgetAtTheStartRunsNothing) {
  EventLoop loop;
  int runs = 0;
  loop.At(0, [&] { Forever(&loop, kSecond, &runs); });
  EventLoop::Limits limits;
  limits.over_budget = [] { return true; };
  EXPECT_EQ(loop.Run(kHour, limits).reason, EventLoop::StopReason::kPollBudget);
  EXPECT_EQ(runs, 0);
}

}  // namespace
}  // namespace mpsim
