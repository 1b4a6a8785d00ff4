// Rules of the `kapsule` block: the shared keys, one zone per pool, and the
// upgrade policy's bounds; the warning of a policy that replaces nothing.
#include <string>
#include <vector>

#include "models/kapsule/kapsule_schema.h"
#include "sim/scenario_checks.h"

namespace mpsim::kapsule {

void ValidateBlock(const proto::MachinePoolSpec& pool, const std::string& path,
                   std::vector<scenario::Issue>* issues) {
  using scenario::AddIssue;
  using scenario::JoinKey;
  const proto::KapsuleProvider& k = pool.kapsule();
  scenario::ValidateSharedKeys(k, path, issues);
  // ScalewayManagedMachinePool spec.zone is one zone (docs/reference/oci-scaleway.md §3.3).
  if (k.zones_size() > 1) {
    AddIssue(issues, JoinKey(path, "zones"),
             "a Kapsule pool lives in one zone (ScalewayManagedMachinePool spec.zone); list one, "
             "or one pool per zone");
  }
  scenario::ValidateDistribution(k.creation_retry(), JoinKey(path, "creationRetry"), issues);
  const proto::KapsuleUpgradePolicy& u = k.upgrade_policy();
  const std::string policy = JoinKey(path, "upgradePolicy");
  if (u.max_surge() < 0) AddIssue(issues, JoinKey(policy, "maxSurge"), "expected 0 or more");
  if (u.max_unavailable() < 0) {
    AddIssue(issues, JoinKey(policy, "maxUnavailable"), "expected 0 or more");
  }
}

// CAPS's CRD takes both 0 and sends them (docs/reference/oci-scaleway.md
// §3.3); whether the Kapsule API refuses them is not known, so the pool is
// simulated as asked and its upgrades never end.
void WarnBlock(const proto::MachinePoolSpec& pool, const std::string& path,
               std::vector<scenario::Issue>* warnings) {
  const proto::KapsuleUpgradePolicy& u = pool.kapsule().upgrade_policy();
  if (u.max_surge() == 0 && u.max_unavailable() == 0) {
    scenario::AddIssue(warnings, scenario::JoinKey(path, "upgradePolicy"),
                       "maxSurge and maxUnavailable are both 0: an upgrade replaces no node and "
                       "the pool stays `upgrading`");
  }
}

}  // namespace mpsim::kapsule
