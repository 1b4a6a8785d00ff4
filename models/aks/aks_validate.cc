// Rules of the `aks` block: the shared keys, the kind, the agent pool's name
// (AKS's rule for Linux pools), the upgrade settings and the autoscaler's
// bounds (AKS's node limit, docs/reference/azure-managed.md §3.1).
#include <string>
#include <vector>

#include "models/aks/agent_pool.h"
#include "models/aks/aks_options.h"
#include "models/aks/aks_schema.h"
#include "sim/scenario_checks.h"

namespace mpsim::aks {

using scenario::AddIssue;
using scenario::CheckOneOf;
using scenario::Issue;
using scenario::JoinKey;
using scenario::Quote;

namespace {

// An integer or a percentage from 0% to 100%, as AKS's upgrade settings.
bool AksIntOrPercent(const std::string& v) {
  const bool pct = !v.empty() && v.back() == '%';
  const std::string digits = pct ? v.substr(0, v.size() - 1) : v;
  return !digits.empty() && digits.size() <= 6 &&
         digits.find_first_not_of("0123456789") == std::string::npos &&
         (!pct || std::stoi(digits) <= 100);
}

// docs/reference/azure-managed.md §1.9: a lowercase letter, then lowercase
// letters and digits, at most 12.
bool AksPoolName(const std::string& s) {
  if (s.empty() || s.size() > 12 || s[0] < 'a' || s[0] > 'z') return false;
  for (char c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return false;
  }
  return true;
}

void AksUpgradeKeys(const proto::AksProvider& a, const std::string& path,
                    std::vector<Issue>* issues) {
  for (const auto& [key, value] :
       {std::pair{"maxSurge", a.max_surge()}, std::pair{"maxUnavailable", a.max_unavailable()}}) {
    if (!AksIntOrPercent(value)) {
      AddIssue(issues, JoinKey(path, key),
               "expected an integer or a percentage from 0% to 100%, got " + Quote(value));
    }
  }
  if (AksIntOrPercent(a.max_surge()) && AksIntOrPercent(a.max_unavailable()) &&
      ScaledUp(a.max_surge(), 1) == 0 && ScaledUp(a.max_unavailable(), 1) == 0) {
    AddIssue(issues, JoinKey(path, "maxSurge"), "maxSurge and maxUnavailable cannot both be 0");
  }
}

void AksAutoscalerKeys(const proto::AksProvider& a, const std::string& path,
                       std::vector<Issue>* issues) {
  if (!a.has_autoscaler()) return;
  const auto& s = a.autoscaler();
  const std::string at = JoinKey(path, "autoscaler");
  const int32_t lo = s.has_min_count() ? s.min_count() : 0;
  const int32_t hi = s.has_max_count() ? s.max_count() : kMaxAgentPoolCount;
  if (lo < 0 || hi > kMaxAgentPoolCount || lo > hi) {
    AddIssue(issues, at,
             "expected 0 <= minCount <= maxCount <= 1000 (AKS's nodes per agent pool), got " +
                 std::to_string(lo) + ".." + std::to_string(hi));
  }
  for (int i = 0; i < s.steps_size(); ++i) {
    if (!s.steps(i).has_at() || !s.steps(i).has_count()) {
      AddIssue(issues, JoinKey(at, "steps[" + std::to_string(i) + "]"),
               "expected `at` and `count`");
    }
  }
}

}  // namespace

void ValidateBlock(const proto::MachinePoolSpec& pool, const std::string& path,
                   std::vector<scenario::Issue>* issues) {
  const proto::AksProvider& a = pool.aks();
  scenario::ValidateSharedKeys(a, path, issues);
  CheckOneOf(a.kind(), {kAzureManagedMachinePoolKind, kAzureAsoManagedMachinePoolKind},
             JoinKey(path, "kind"), "kind", issues);
  const std::string name =
      a.agent_pool_name().empty() ? DefaultAgentPoolName(pool.name()) : a.agent_pool_name();
  if (!AksPoolName(name)) {
    AddIssue(issues, JoinKey(path, "agentPoolName"),
             "expected a lowercase letter then lowercase letters or digits, at most 12, got " +
                 Quote(name));
  }
  if (a.node_resource_group().empty() || a.node_resource_group().size() > 80) {
    AddIssue(issues, JoinKey(path, "nodeResourceGroup"), "expected 1 to 80 characters");
  }
  for (const auto& [key, d] :
       {std::pair{"operationDelay", &a.operation_delay()},
        std::pair{"asoReconcileDelay", &a.aso_reconcile_delay()},
        std::pair{"allocationFailureDelay", &a.allocation_failure_delay()}}) {
    scenario::ValidateDistribution(*d, JoinKey(path, key), issues);
  }
  if (a.aso_sync_period() <= 0)
    AddIssue(issues, JoinKey(path, "asoSyncPeriod"), "expected above 0s");
  if (a.aso_blocked_retry() <= 0) {
    AddIssue(issues, JoinKey(path, "asoBlockedRetry"), "expected above 0s");
  }
  scenario::CheckProbability(a.allocation_failed_probability(),
                             JoinKey(path, "allocationFailedProbability"), issues);
  AksUpgradeKeys(a, path, issues);
  AksAutoscalerKeys(a, path, issues);
  if (a.arm_read_burst() < 1)
    AddIssue(issues, JoinKey(path, "armReadBurst"), "expected at least 1");
  if (a.arm_write_burst() < 1) {
    AddIssue(issues, JoinKey(path, "armWriteBurst"), "expected at least 1");
  }
  if (!(a.arm_reads_per_second() > 0) || !(a.arm_writes_per_second() > 0)) {
    AddIssue(issues, JoinKey(path, "armReadsPerSecond"), "expected refill rates above 0");
  }
}

}  // namespace mpsim::aks
