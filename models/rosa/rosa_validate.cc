// Rules of the `rosa` block: the shared keys, one zone (a NodePool has one
// subnet), the rolling update's counts (docs/reference/aws-managed.md §3.6),
// and the fault knobs (iceProbability, apiThrottling's buckets).
#include <string>
#include <vector>

#include "models/rosa/rosa_schema.h"
#include "sim/scenario_checks.h"

namespace mpsim::rosa {

using scenario::AddIssue;
using scenario::JoinKey;
using scenario::ValidateDistribution;

void ValidateBlock(const proto::MachinePoolSpec& pool, const std::string& path,
                   std::vector<scenario::Issue>* issues) {
  const proto::RosaProvider& r = pool.rosa();
  scenario::ValidateSharedKeys(r, path, issues);
  if (r.zones_size() > 1) {
    AddIssue(issues, JoinKey(path, "zones"),
             "a ROSA NodePool has one subnet, so one zone (ROSAMachinePool spec.subnet)");
  }
  ValidateDistribution(r.reaction_delay(), JoinKey(path, "reactionDelay"), issues);
  ValidateDistribution(r.launch_retry(), JoinKey(path, "launchRetry"), issues);
  ValidateDistribution(r.upgrade_start_delay(), JoinKey(path, "upgradeStartDelay"), issues);
  if (r.max_surge() < 0) AddIssue(issues, JoinKey(path, "maxSurge"), "expected 0 or more");
  if (r.max_unavailable() < 0) {
    AddIssue(issues, JoinKey(path, "maxUnavailable"), "expected 0 or more");
  }
  scenario::CheckProbability(r.ice_probability(), JoinKey(path, "iceProbability"), issues);
  const proto::RosaApiThrottling& t = r.api_throttling();
  const std::pair<int32_t, const char*> counts[] = {{t.describe_burst(), "describeBurst"},
                                                    {t.describe_refill(), "describeRefill"},
                                                    {t.ocm_burst(), "ocmBurst"},
                                                    {t.ocm_refill(), "ocmRefill"}};
  for (const auto& [n, key] : counts) {
    if (n < 1 || n > 1'000'000) {
      AddIssue(issues, JoinKey(JoinKey(path, "apiThrottling"), key),
               "expected 1 to 1000000 tokens");
    }
  }
  if (r.max_surge() == 0 && r.max_unavailable() == 0) {
    AddIssue(issues, JoinKey(path, "maxUnavailable"),
             "maxSurge and maxUnavailable cannot both be 0 (rosamachinepool_types.go)");
  }
}

}  // namespace mpsim::rosa
