// Rules of a GKE pool's node-pool keys (a `mig` block with `gke: true`) and of
// the `setInfraPoolSpec` event that edits them later: the same key, the same
// rule, so an edit cannot give a value the block itself would refuse.
#include <charconv>
#include <map>
#include <string>
#include <vector>

#include "models/common/node_config_text.h"
#include "models/mig/gke_config_text.h"
#include "models/mig/mig_validate.h"
#include "sim/scenario_checks.h"
#include "sim/yaml_to_proto.h"

namespace mpsim::mig {

using scenario::AddIssue;
using scenario::CheckOneOf;
using scenario::DidYouMean;
using scenario::Issue;
using scenario::JoinKey;
using scenario::OrList;
using scenario::Quote;

namespace {

// GKE allows at most 1,000 nodes per node-pool zone (GKE quotas page; not in
// docs/reference/providers.md, unverified), which bounds the autoscaler's counts.
constexpr int32_t kMaxNodesPerZone = 1000;

const std::vector<std::string> kEditableKeys = {"imageType",
                                                "gkeAutoscaling.enabled",
                                                "gkeAutoscaling.minNodeCount",
                                                "gkeAutoscaling.maxNodeCount",
                                                "kubernetesLabels",
                                                "kubernetesTaints",
                                                "resourceLabels",
                                                "networkTags",
                                                "linuxSysctls",
                                                "linuxCgroupMode",
                                                "nodeLocations"};

void CheckImageType(const std::string& t, const std::string& path, std::vector<Issue>* issues) {
  const bool ok = !t.empty() && t.size() <= 64 &&
                  t.find_first_not_of(
                      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                      "0123456789_") == std::string::npos;
  if (!ok) {
    issues->push_back({path,
                       "expected an image type such as COS_CONTAINERD (letters, digits and "
                       "'_'), got " +
                           Quote(t)});
  }
}

// `text` read by `parse` (api/node_config_text.h, api/gke_config_text.h): the
// model reads the same text with the same parser, so what passes here is
// what it will apply.
template <class T>
void CheckParses(bool (*parse)(std::string_view, T*, std::string*), const char* expected,
                 const std::string& text, const std::string& path, std::vector<Issue>* issues) {
  T value;
  std::string error;
  if (!parse(text, &value, &error)) {
    issues->push_back({path, std::string("expected ") + expected + ": " + error});
  }
}

void CheckLabels(const std::string& text, const std::string& path, std::vector<Issue>* issues) {
  CheckParses(ParseLabelsText, "labels as \"key=value,...\"", text, path, issues);
}
void CheckTaints(const std::string& text, const std::string& path, std::vector<Issue>* issues) {
  CheckParses(ParseTaintsText, "taints as \"key[=value]:Effect,...\"", text, path, issues);
}
void CheckResourceLabels(const std::string& text, const std::string& path,
                         std::vector<Issue>* issues) {
  CheckParses(ParseResourceLabelsText, "GCE labels as \"key=value,...\"", text, path, issues);
}
void CheckNetworkTags(const std::string& text, const std::string& path,
                      std::vector<Issue>* issues) {
  CheckParses(ParseNetworkTagsText, "network tags as \"tag,...\"", text, path, issues);
}
void CheckSysctls(const std::string& text, const std::string& path, std::vector<Issue>* issues) {
  CheckParses(ParseSysctlsText, "sysctls as \"name=value,...\"", text, path, issues);
}

void CheckNodeLocations(const std::string& text, const std::string& path,
                        std::vector<Issue>* issues) {
  CheckParses(ParseNodeLocationsText, "node locations as \"zone,...\"", text, path, issues);
}

void CheckCgroupMode(const std::string& mode, const std::string& path, std::vector<Issue>* issues) {
  if (!IsCgroupMode(mode)) {
    issues->push_back(
        {path, "expected \"\", CGROUP_MODE_V1 or CGROUP_MODE_V2, got " + Quote(mode)});
  }
}

void CheckNodeCount(int64_t n, const std::string& path, std::vector<Issue>* issues) {
  if (n < 0 || n > kMaxNodesPerZone) {
    issues->push_back({path, "expected a node count per zone from 0 to " +
                                 std::to_string(kMaxNodesPerZone) + ", got " + std::to_string(n)});
  }
}

// GKE refuses an autoscaler whose minimum is above its maximum.
void CheckBounds(const proto::GkeAutoscaling& a, const std::string& path,
                 std::vector<Issue>* issues) {
  if (a.min_node_count() > a.max_node_count()) {
    issues->push_back({path, "expected minNodeCount (" + std::to_string(a.min_node_count()) +
                                 ") at most maxNodeCount (" + std::to_string(a.max_node_count()) +
                                 ")"});
  }
}

// Parses `text` as a node count; false (with an issue) if it is not one.
bool ParseCount(const std::string& text, const std::string& path, int32_t* out,
                std::vector<Issue>* issues) {
  int64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    issues->push_back({path, "expected a node count per zone from 0 to " +
                                 std::to_string(kMaxNodesPerZone) + ", got " + Quote(text)});
    return false;
  }
  CheckNodeCount(n, path, issues);
  *out = static_cast<int32_t>(n);
  return n >= 0 && n <= kMaxNodesPerZone;
}

// Applies one edited field to `m`, or adds an issue naming what was expected.
void ApplyField(const std::string& key, const std::string& value, const std::string& path,
                proto::MigProvider* m, std::vector<Issue>* issues) {
  proto::GkeAutoscaling* a = m->mutable_gke_autoscaling();
  int32_t n = 0;
  if (key == "imageType") {
    CheckImageType(value, path, issues);
  } else if (key == "kubernetesLabels") {
    CheckLabels(value, path, issues);
  } else if (key == "kubernetesTaints") {
    CheckTaints(value, path, issues);
  } else if (key == "resourceLabels") {
    CheckResourceLabels(value, path, issues);
  } else if (key == "networkTags") {
    CheckNetworkTags(value, path, issues);
  } else if (key == "linuxSysctls") {
    CheckSysctls(value, path, issues);
  } else if (key == "linuxCgroupMode") {
    CheckCgroupMode(value, path, issues);
  } else if (key == "nodeLocations") {
    CheckNodeLocations(value, path, issues);
  } else if (key == "gkeAutoscaling.enabled") {
    if (value == "true" || value == "false") {
      a->set_enabled(value == "true");
    } else {
      issues->push_back({path, "expected true or false, got " + Quote(value)});
    }
  } else if (key == "gkeAutoscaling.minNodeCount") {
    if (ParseCount(value, path, &n, issues)) a->set_min_node_count(n);
  } else if (key == "gkeAutoscaling.maxNodeCount") {
    if (ParseCount(value, path, &n, issues)) a->set_max_node_count(n);
  } else {
    issues->push_back({path, "unknown field " + Quote(key) + " of a GKE pool; expected " +
                                 OrList(kEditableKeys) + DidYouMean(key, kEditableKeys)});
  }
}

}  // namespace

void ValidateGkeKeys(const proto::MigProvider& m, const std::string& path,
                     std::vector<Issue>* issues) {
  const std::string scaling = JoinKey(path, "gkeAutoscaling");
  CheckNodeCount(m.gke_autoscaling().min_node_count(), JoinKey(scaling, "minNodeCount"), issues);
  CheckNodeCount(m.gke_autoscaling().max_node_count(), JoinKey(scaling, "maxNodeCount"), issues);
  CheckBounds(m.gke_autoscaling(), scaling, issues);
  CheckImageType(m.image_type(), JoinKey(path, "imageType"), issues);
  CheckLabels(m.kubernetes_labels(), JoinKey(path, "kubernetesLabels"), issues);
  CheckTaints(m.kubernetes_taints(), JoinKey(path, "kubernetesTaints"), issues);
  CheckResourceLabels(m.resource_labels(), JoinKey(path, "resourceLabels"), issues);
  CheckNetworkTags(m.network_tags(), JoinKey(path, "networkTags"), issues);
  CheckSysctls(m.linux_sysctls(), JoinKey(path, "linuxSysctls"), issues);
  CheckCgroupMode(m.linux_cgroup_mode(), JoinKey(path, "linuxCgroupMode"), issues);
  if (m.has_node_locations()) {
    CheckNodeLocations(m.node_locations(), JoinKey(path, "nodeLocations"), issues);
  }
}

void ValidateInfraPoolSpecEdit(const proto::MachinePoolSpec& pool,
                               const proto::Event::SetInfraPoolSpec& edit, const std::string& path,
                               std::vector<Issue>* issues) {
  if (!pool.mig().gke()) {
    issues->push_back({JoinKey(path, "pool"), EditRefusal(pool.name())});
    return;
  }
  const std::string fields = JoinKey(path, "fields");
  proto::MigProvider merged = pool.mig();
  // Sorted, so that errors come out in the same order on every run.
  const std::map<std::string, std::string> sorted(edit.fields().begin(), edit.fields().end());
  for (const auto& [key, value] : sorted) {
    ApplyField(key, value, JoinKey(fields, key), &merged, issues);
  }
  CheckBounds(merged.gke_autoscaling(), fields, issues);
}

const std::vector<std::string>& EditableKeys() { return kEditableKeys; }

std::string EditRefusal(const std::string& pool_name) {
  return "pool " + Quote(pool_name) +
         " is not a GKE pool (provider mig with gke: true); of the mig pools only GKE pools take "
         "InfraMachinePool spec fields: " +
         OrList(kEditableKeys);
}

}  // namespace mpsim::mig
