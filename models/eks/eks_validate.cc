// Rules of the `eks` block: the shared keys, CAPA's webhook rules for
// spec.updateConfig and spec.scaling (docs/reference/aws-managed.md §1.8),
// and EKS's quota of nodes per managed node group (§2.4).
#include <string>
#include <vector>

#include "models/eks/eks_schema.h"
#include "sim/scenario_checks.h"

namespace mpsim::eks {

using scenario::AddIssue;
using scenario::Issue;
using scenario::JoinKey;
using scenario::ValidateDistribution;

namespace {

// whk:89-108 and the CRD markers (types.go:380-396): exactly one of the
// two, each 1 to 100.
void UpdateConfig(const proto::EksProvider& e, const std::string& path,
                  std::vector<Issue>* issues) {
  if (e.has_max_unavailable() && e.has_max_unavailable_percentage()) {
    AddIssue(issues, JoinKey(path, "maxUnavailablePercentage"),
             "set either maxUnavailable or maxUnavailablePercentage, not both (CAPA webhook)");
  }
  if (e.has_max_unavailable() && (e.max_unavailable() < 1 || e.max_unavailable() > 100)) {
    AddIssue(issues, JoinKey(path, "maxUnavailable"), "expected 1 to 100 nodes");
  }
  if (e.has_max_unavailable_percentage() &&
      (e.max_unavailable_percentage() < 1 || e.max_unavailable_percentage() > 100)) {
    AddIssue(issues, JoinKey(path, "maxUnavailablePercentage"),
             "expected a percentage from 1 to 100");
  }
}

// whk:64-87: both at least 0 and max >= min; nothing relates them to the
// replicas (§1.8), which EKS itself checks.
void Scaling(const proto::EksProvider& e, const std::string& path, std::vector<Issue>* issues) {
  if (e.has_min_size() && e.min_size() < 0) {
    AddIssue(issues, JoinKey(path, "minSize"), "expected 0 or more");
  }
  if (e.has_max_size() && e.max_size() < 0) {
    AddIssue(issues, JoinKey(path, "maxSize"), "expected 0 or more");
  }
  if (e.has_min_size() && e.has_max_size() && e.max_size() < e.min_size()) {
    AddIssue(issues, JoinKey(path, "maxSize"), "expected maxSize >= minSize (CAPA webhook)");
  }
}

}  // namespace

void ValidateBlock(const proto::MachinePoolSpec& pool, const std::string& path,
                   std::vector<Issue>* issues) {
  const proto::EksProvider& e = pool.eks();
  scenario::ValidateSharedKeys(e, path, issues);
  ValidateDistribution(e.create_delay(), JoinKey(path, "createDelay"), issues);
  ValidateDistribution(e.settle_delay(), JoinKey(path, "settleDelay"), issues);
  ValidateDistribution(e.update_setup_delay(), JoinKey(path, "updateSetupDelay"), issues);
  ValidateDistribution(e.reaction_delay(), JoinKey(path, "reactionDelay"), issues);
  ValidateDistribution(e.launch_retry(), JoinKey(path, "launchRetry"), issues);
  ValidateDistribution(e.delete_group_delay(), JoinKey(path, "deleteGroupDelay"), issues);
  UpdateConfig(e, path, issues);
  Scaling(e, path, issues);
  const int32_t quota = e.nodes_per_nodegroup_quota();
  if (quota < 1 || quota > 100'000) {
    AddIssue(issues, JoinKey(path, "nodesPerNodegroupQuota"), "expected 1 to 100000 nodes");
  } else if (pool.replicas() > quota) {
    AddIssue(issues, JoinKey(path.substr(0, path.rfind(".provider")), "replicas"),
             std::to_string(pool.replicas()) +
                 " replicas exceed the EKS quota of nodes per managed node group (" +
                 std::to_string(quota) +
                 "; docs/reference/aws-managed.md §2.4); raise provider.eks.nodesPerNodegroupQuota "
                 "as a quota increase would");
  }
  if (e.max_wait_managed_resources() < kMinute) {
    AddIssue(issues, JoinKey(path, "maxWaitManagedResources"), "expected at least 1m");
  }
}

}  // namespace mpsim::eks
