// Rules of the `rosa` block: the shared keys, one zone (a NodePool has one
// subnet), and the rolling update's counts (docs/reference/aws-managed.md §3.6).
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
  if (r.max_surge() == 0 && r.max_unavailable() == 0) {
    AddIssue(issues, JoinKey(path, "maxUnavailable"),
             "maxSurge and maxUnavailable cannot both be 0 (rosamachinepool_types.go)");
  }
}

}  // namespace mpsim::rosa
