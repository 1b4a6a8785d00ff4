// Rules of the `mig` block: the shared keys and the group's own; the GKE
// node-pool keys and the update policy have files of their own.
#include "models/mig/mig_validate.h"

#include <string>
#include <vector>

#include "models/mig/mig_schema.h"
#include "sim/scenario_checks.h"

namespace mpsim::mig {
namespace {

void GroupKeys(const proto::MigProvider& m, const std::string& path,
               std::vector<scenario::Issue>* issues) {
  using scenario::AddIssue;
  using scenario::CheckProbability;
  using scenario::JoinKey;
  auto dist = [&](const proto::Distribution& d, const char* key) {
    scenario::ValidateDistribution(d, JoinKey(path, key), issues);
  };
  dist(m.reaction_delay(), "reactionDelay");
  dist(m.stockout_retry(), "stockoutRetry");
  CheckProbability(m.stockout_probability(), JoinKey(path, "stockoutProbability"), issues);
  CheckProbability(m.malformed_url_probability(), JoinKey(path, "malformedUrlProbability"), issues);
  CheckProbability(m.preemption_probability(), JoinKey(path, "preemptionProbability"), issues);
  if (m.staging_fraction() < 0 || m.staging_fraction() >= 1) {
    AddIssue(issues, JoinKey(path, "stagingFraction"),
             "expected a fraction of the launch delay from 0 up to (not including) 1, got " +
                 scenario::FormatNumber(m.staging_fraction()));
  }
  if (m.has_autohealing_initial_delay())
    dist(m.autohealing_initial_delay(), "autohealingInitialDelay");
  if (m.preemption_probability() == 1) {
    AddIssue(issues, JoinKey(path, "preemptionProbability"),
             "expected below 1: a VM preempted within every hour for sure has no finite rate");
  }
  scenario::CheckOneOf(m.update_policy(), {"OPPORTUNISTIC", "PROACTIVE"},
                       JoinKey(path, "updatePolicy"), "update policy", issues);
  if (m.api_requests_per_minute() == 0) {
    AddIssue(issues, JoinKey(path, "apiRequestsPerMinute"),
             "expected at least 1 request per minute");
  }
  if (m.project().empty())
    AddIssue(issues, JoinKey(path, "project"), "the project cannot be empty");
  dist(m.node_pool_operation_delay(), "nodePoolOperationDelay");
  // GKE refuses upgrade settings that upgrade nothing at once (docs/reference/providers.md §3.2).
  const auto& u = m.upgrade_settings();
  if (u.max_surge() + static_cast<int64_t>(u.max_unavailable()) == 0) {
    AddIssue(issues, JoinKey(path, "upgradeSettings"),
             "expected maxSurge or maxUnavailable above 0");
  }
}

}  // namespace

void ValidateBlock(const proto::MachinePoolSpec& pool, const std::string& path,
                   std::vector<scenario::Issue>* issues) {
  const proto::MigProvider& m = pool.mig();
  scenario::ValidateSharedKeys(m, path, issues);
  GroupKeys(m, path, issues);
  ValidateGkeKeys(m, path, issues);
  ValidateMigUpdatePolicy(m, pool.replicas(), path, issues);
}

// CAPG's webhooks take any zones, but its GCPMachinePool scope makes a zonal
// group in exactly one (cloud/scope/machinepool.go:162-172,
// docs/reference/providers.md §3.6.1): with more, every reconcile fails. A GKE
// pool's zones are the cluster's, which may be regional.
void WarnBlock(const proto::MachinePoolSpec& pool, const std::string& path,
               std::vector<scenario::Issue>* warnings) {
  const proto::MigProvider& m = pool.mig();
  if (m.gke() || m.zones_size() <= 1) return;
  scenario::AddIssue(warnings, scenario::JoinKey(path, "zones"),
                     "GCPMachinePool needs exactly one failure domain (zone), got " +
                         std::to_string(m.zones_size()) +
                         ": CAPG fails every reconcile of this pool and it never converges; "
                         "list one zone (or set gke: true for a regional GKE node pool)");
}

}  // namespace mpsim::mig
