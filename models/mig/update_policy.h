// The MIG's update policy (InstanceGroupManagerUpdatePolicy, docs/reference/providers.md
// §3.2) and its arithmetic: how many instances may be added above the target
// size and taken out of service at once while an instance template is rolled
// out.
#pragma once

#include <cstdint>
#include <string>

namespace mpsim::mig {

enum class MinimalAction { kRefresh, kRestart, kReplace };
enum class ReplacementMethod { kSubstitute, kRecreate };

// CAPG sets no update policy, so GCE's defaults apply (docs/reference/providers.md §4.3):
// maxSurge = number of zones (1: CAPG's MIG has one), maxUnavailable 1,
// minimalAction REPLACE, replacementMethod SUBSTITUTE.
struct UpdatePolicy {
  bool proactive = false;             // type PROACTIVE; OPPORTUNISTIC keeps existing VMs
  std::string max_surge = "1";        // a fixed count or "N%"
  std::string max_unavailable = "1";  // a fixed count or "N%"
  MinimalAction minimal_action = MinimalAction::kReplace;
  ReplacementMethod replacement = ReplacementMethod::kSubstitute;
};

// What the policy allows for a group of one target size.
struct UpdateBudget {
  int32_t surge = 0;        // instances above the target size
  int32_t unavailable = 0;  // instances of the target size out of service
  int32_t parallelism() const { return surge + unavailable; }
};

// A fixed count as written, or a percent of `size` rounded up ("rounded up"
// in the older text of §3.2; the current text says "rounded if necessary").
// REQUIRES: v is digits, optionally followed by '%'.
int32_t FixedOrPercent(const std::string& v, int32_t size);

// True when an outdated VM is updated where it stands: REFRESH and RESTART
// keep it, RECREATE replaces it under the same name. None of these surges.
bool UpdatesInPlace(const UpdatePolicy& p);

// The budget for a group whose target size is `size`; in-place updates get no
// surge (RECREATE "requires maxUnavailable > 0", §3.2).
UpdateBudget BudgetFor(const UpdatePolicy& p, int32_t size);

}  // namespace mpsim::mig
