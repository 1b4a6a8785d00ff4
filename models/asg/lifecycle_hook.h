// Lifecycle hooks of an Auto Scaling Group (docs/reference/providers.md §1.1, §4.1): how long
// an instance waits in Pending:Wait or Terminating:Wait, and with what result.
#pragma once

#include <optional>

#include "api/time.h"
#include "sim/distribution.h"
#include "sim/random.h"

namespace mpsim::asg {

enum class HookResult { kContinue, kAbandon };

struct LifecycleHook {
  bool configured = false;
  Duration heartbeat_timeout = kHour;                // CAPA and AWS default 3600 s
  HookResult default_result = HookResult::kAbandon;  // CAPA's default (lifecyclehook.go)
  std::optional<DistSpec> complete_after;  // CompleteLifecycleAction(CONTINUE); none: never
};

// How one wait ends: `after` it starts, with `result`; `timed_out` when the
// heartbeat ran out before anyone completed the action.
struct HookOutcome {
  Duration after = 0;
  HookResult result = HookResult::kContinue;
  bool timed_out = false;
};

// Draws the end of one instance's wait on `hook`. REQUIRES: hook.configured.
HookOutcome ResolveHook(const LifecycleHook& hook, Rng& rng);

}  // namespace mpsim::asg
