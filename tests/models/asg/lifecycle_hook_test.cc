// How a lifecycle-hook wait ends: completed by an agent before the heartbeat
// timeout (CONTINUE), or at the timeout with the hook's default result.
#include "models/asg/lifecycle_hook.h"

#include <gtest/gtest.h>

namespace mpsim::asg {
namespace {

LifecycleHook Hook() {
  LifecycleHook h;
  h.configured = true;
  return h;
}

TEST(LifecycleHook, NobodyCompletesItSoTheHourlyHeartbeatAbandons) {
  Rng rng(1);
  const HookOutcome o = ResolveHook(Hook(), rng);
  EXPECT_EQ(o.after, kHour);
  EXPECT_EQ(o.result, HookResult::kAbandon);
  EXPECT_TRUE(o.timed_out);
}

TEST(LifecycleHook, AnAgentCompletesItBeforeTheTimeout) {
  LifecycleHook h = Hook();
  h.complete_after = DistSpec::Constant(40 * kSecond);
  Rng rng(1);
  const HookOutcome o = ResolveHook(h, rng);
  EXPECT_EQ(o.after, 40 * kSecond);
  EXPECT_EQ(o.result, HookResult::kContinue);
  EXPECT_FALSE(o.timed_out);
}

TEST(LifecycleHook, AnAgentTooSlowLosesToTheTimeoutAndItsDefaultResult) {
  LifecycleHook h = Hook();
  h.heartbeat_timeout = 5 * kMinute;
  h.default_result = HookResult::kContinue;
  h.complete_after = DistSpec::Constant(5 * kMinute);
  Rng rng(1);
  const HookOutcome o = ResolveHook(h, rng);
  EXPECT_EQ(o.after, 5 * kMinute);
  EXPECT_EQ(o.result, HookResult::kContinue);
  EXPECT_TRUE(o.timed_out);
}

}  // namespace
}  // namespace mpsim::asg
