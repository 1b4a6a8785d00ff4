// Rules of the `asg` block: the shared keys, the fault knobs, lifecycle hooks,
// API throttling buckets and spot interruption rate (the ranges AWS itself
// accepts, where it states them).
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "api/time.h"
#include "models/asg/asg_schema.h"
#include "sim/scenario_checks.h"

namespace mpsim::asg {

using scenario::AddIssue;
using scenario::CheckOneOf;
using scenario::Issue;
using scenario::JoinIndex;
using scenario::JoinKey;
using scenario::Quote;
using scenario::ValidateDistribution;

namespace {

void Throttling(const proto::AsgApiThrottling& t, const std::string& path,
                std::vector<Issue>* issues) {
  const std::pair<int32_t, const char*> counts[] = {
      {t.describe_burst(), "describeBurst"},
      {t.describe_refill(), "describeRefill"},
      {t.mutating_burst(), "mutatingBurst"},
      {t.mutating_refill(), "mutatingRefill"},
      {t.run_instances_burst(), "runInstancesBurst"},
      {t.run_instances_refill(), "runInstancesRefill"}};
  for (const auto& [n, key] : counts) {
    if (n < 1 || n > 1'000'000) {
      AddIssue(issues, JoinKey(path, key), "expected 1 to 1000000 tokens");
    }
  }
}

// AWS takes a heartbeat timeout from 30 to 7200 seconds (API_PutLifecycleHook).
void Hook(const proto::AsgLifecycleHook& h, const std::string& path, std::vector<Issue>* issues) {
  CheckOneOf(h.transition(), {"launching", "terminating"}, JoinKey(path, "transition"),
             "transition", issues);
  if (h.heartbeat_timeout() < 30 * kSecond || h.heartbeat_timeout() > 7200 * kSecond) {
    AddIssue(issues, JoinKey(path, "heartbeatTimeout"), "expected a duration from 30s to 2h");
  }
  CheckOneOf(h.default_result(), {"CONTINUE", "ABANDON"}, JoinKey(path, "defaultResult"),
             "default result", issues);
  if (h.has_complete_after()) {
    ValidateDistribution(h.complete_after(), JoinKey(path, "completeAfter"), issues);
  }
}

void HooksAndLimits(const proto::AsgProvider& a, const std::string& path,
                    std::vector<Issue>* issues) {
  const double rate = a.spot_interruption_rate();
  if (!(rate >= 0 && rate <= 3600)) {
    AddIssue(issues, JoinKey(path, "spotInterruptionRate"),
             "expected 0 to 3600 interruptions per instance-hour");
  }
  Throttling(a.api_throttling(), JoinKey(path, "apiThrottling"), issues);
  std::vector<std::string> seen;
  for (int i = 0; i < a.lifecycle_hooks_size(); ++i) {
    const std::string item = JoinIndex(JoinKey(path, "lifecycleHooks"), i);
    const std::string& t = a.lifecycle_hooks(i).transition();
    // The model keeps one wait per transition.
    if (std::find(seen.begin(), seen.end(), t) != seen.end()) {
      AddIssue(issues, JoinKey(item, "transition"), "a " + t + " hook is already listed");
    }
    seen.push_back(t);
    Hook(a.lifecycle_hooks(i), item, issues);
  }
}

}  // namespace

void ValidateBlock(const proto::MachinePoolSpec& pool, const std::string& path,
                   std::vector<scenario::Issue>* issues) {
  const proto::AsgProvider& a = pool.asg();
  scenario::ValidateSharedKeys(a, path, issues);
  ValidateDistribution(a.reaction_delay(), JoinKey(path, "reactionDelay"), issues);
  ValidateDistribution(a.launch_retry(), JoinKey(path, "launchRetry"), issues);
  scenario::CheckProbability(a.ice_probability(), JoinKey(path, "iceProbability"), issues);
  scenario::CheckProbability(a.missing_az(), JoinKey(path, "missingAZ"), issues);
  scenario::CheckProbability(a.reorder_probability(), JoinKey(path, "reorderProbability"), issues);
  if (a.min_healthy_percentage() > 100) {
    AddIssue(issues, JoinKey(path, "minHealthyPercentage"), "expected a percentage from 0 to 100");
  }
  HooksAndLimits(a, path, issues);
}

}  // namespace mpsim::asg
