#include "models/asg/lifecycle_hook.h"

#include <cassert>

namespace mpsim::asg {

// The instance waits until someone completes the lifecycle action or the
// heartbeat timeout ends, then the hook's default result applies
// (lifecycle-hooks-overview.html). A completion at the timeout itself loses.
HookOutcome ResolveHook(const LifecycleHook& hook, Rng& rng) {
  assert(hook.configured);
  if (hook.complete_after) {
    const Duration d = Sample(*hook.complete_after, rng);
    if (d < hook.heartbeat_timeout) return {d, HookResult::kContinue, false};
  }
  return {hook.heartbeat_timeout, hook.default_result, true};
}

}  // namespace mpsim::asg
