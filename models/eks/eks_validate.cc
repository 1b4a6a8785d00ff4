// Rules of the `eks` block: the shared keys, CAPA's webhook rules for
// spec.updateConfig and spec.scaling (docs/reference/aws-managed.md §1.8),
// and EKS's quota of nodes per managed node group (§2.4).
#include <charconv>
#include <map>
#include <string>
#include <vector>

#include "models/eks/eks_options.h"
#include "models/eks/eks_schema.h"
#include "sim/scenario_checks.h"
#include "sim/yaml_to_proto.h"

namespace mpsim::eks {

using scenario::AddIssue;
using scenario::DidYouMean;
using scenario::Issue;
using scenario::JoinKey;
using scenario::OrList;
using scenario::Quote;
using scenario::ValidateDistribution;

namespace {

const std::vector<std::string> kEditableKeys = {kScalingMinSizeField, kScalingMaxSizeField};

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

void Throttling(const proto::EksApiThrottling& t, const std::string& path,
                std::vector<Issue>* issues) {
  const std::pair<int32_t, const char*> counts[] = {{t.describe_burst(), "describeBurst"},
                                                    {t.describe_refill(), "describeRefill"},
                                                    {t.mutating_burst(), "mutatingBurst"},
                                                    {t.mutating_refill(), "mutatingRefill"}};
  for (const auto& [n, key] : counts) {
    if (n < 1 || n > 1'000'000) {
      AddIssue(issues, JoinKey(path, key), "expected 1 to 1000000 tokens");
    }
  }
}

// One edited spec.scaling field into `e`: a count of nodes, 0 or more.
void ApplyField(const std::string& key, const std::string& value, const std::string& path,
                proto::EksProvider* e, std::vector<Issue>* issues) {
  if (key != kScalingMinSizeField && key != kScalingMaxSizeField) {
    AddIssue(issues, path,
             "unknown field " + Quote(key) + " of an eks pool; expected " + OrList(kEditableKeys) +
                 DidYouMean(key, kEditableKeys));
    return;
  }
  int32_t n = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (value.empty() || ec != std::errc() || end != value.data() + value.size() || n < 0) {
    AddIssue(issues, path, "expected a node count, 0 or more, got " + Quote(value));
    return;
  }
  if (key == kScalingMinSizeField) {
    e->set_min_size(n);
  } else {
    e->set_max_size(n);
  }
}

}  // namespace

// The webhook's scaling rules hold for an update as for a create (whk:64-87,
// docs/reference/aws-managed.md §1.8); nothing relates the bounds to the
// replicas, which EKS itself checks (§2.3, CAPA#5746).
void ValidateEdit(const proto::MachinePoolSpec& pool, const proto::Event::SetInfraPoolSpec& edit,
                  const std::string& path, std::vector<Issue>* issues) {
  const std::string fields = JoinKey(path, "fields");
  proto::EksProvider merged = pool.eks();
  // Sorted, so that errors come out in the same order on every run.
  const std::map<std::string, std::string> sorted(edit.fields().begin(), edit.fields().end());
  for (const auto& [key, value] : sorted) {
    ApplyField(key, value, JoinKey(fields, key), &merged, issues);
  }
  if (merged.has_min_size() && merged.has_max_size() && merged.max_size() < merged.min_size()) {
    AddIssue(issues, fields,
             "expected scaling.maxSize (" + std::to_string(merged.max_size()) +
                 ") >= scaling.minSize (" + std::to_string(merged.min_size()) +
                 ") once the edit is applied (CAPA webhook)");
  }
}

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
  scenario::CheckProbability(e.ice_probability(), JoinKey(path, "iceProbability"), issues);
  Throttling(e.api_throttling(), JoinKey(path, "apiThrottling"), issues);
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
