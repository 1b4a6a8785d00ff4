#include "scenario/defaults.h"

#include <string>

#include "models/registry.h"
#include "scenario/scenario.pb.h"
#include "sim/scenario_schema.h"

namespace mpsim::scenario {
namespace {

// Sources: the fact sheets docs/reference/capi-core.md and providers.md.
// providers.md §4 writes LN(median, p95); our lognormals take a p99, so each such figure is
// converted: p99 = median * (p95/median)^(z99/z95), z99/z95 = 2.3263/1.6449, rounded to the second.
const std::vector<DefaultEntry> kCoreDefaults = {
    {"spec.seed", "1", "", "mpsim choice; `--seed` overrides it", "-"},
    {"spec.horizon", "1h", "", "mpsim choice", "-"},
    {"spec.limits.maxEvents", "200000000", "",
     "mpsim choice: about 100 times the events of a 100,000-replica scale-up", "-"},
    {"spec.limits.maxMemoryMiB", "8192", "",
     "mpsim choice: well above the 100,000-replica runs of the performance budget", "-"},
    {"spec.limits.maxEventsPerInstant", "5000000", "",
     "mpsim choice: 50 events per instance of the largest pool at one instant", "-"},
    {"spec.apiServer.maxObjectBytes", "1572864", "",
     "etcd --max-request-bytes default, 1.5 MiB (server/embed/config.go DefaultMaxRequestBytes; "
     "docs/reference/capi-core.md §1.15)",
     "H"},
    {"spec.controller.maxConcurrentReconciles", "50", "10 in releases before core/main.go",
     "Cluster API core/main.go --machinepool-concurrency (docs/reference/capi-core.md §1.2)", "H"},
    {"spec.controller.informerLag", "{dist: exponential, mean: 50ms}", "",
     "assumption: watch delivery on a healthy management cluster", "L"},
    {"spec.controller.syncPeriod", "10m", "",
     "Cluster API core/main.go --sync-period (docs/reference/capi-core.md §1.2)", "H"},
    {"spec.controller.reconcileDuration", "{dist: constant, value: 20ms}", "", "assumption", "L"},
    {"spec.controller.reconcileCost.perObjectListed", "0s", "",
     "off: a reconcile costs reconcileDuration whatever it lists; see docs/capacity-planning.md "
     "for "
     "values to study",
     "-"},
    {"spec.controller.providerIDMatch", "exact", "",
     "Cluster API >= v1.5 compares providerIDs byte for byte (docs/reference/capi-core.md §2.8)",
     "H"},
    {"spec.controller.fixes", "[]", "", "none: reproduce Cluster API HEAD as it is", "-"},
    {"spec.workloadCluster.nodeRegistration", "{dist: lognormal, median: 25s, p99: 57s}", "",
     "docs/reference/providers.md §4.1 OS boot -> Node registered LN(25s, p95 45s); the tail "
     "keeps launch -> Node Ready within the published 45-90 s (§1.4)",
     "M"},
    {"spec.workloadCluster.nodeReady", "{dist: lognormal, median: 15s, p99: 40s}", "",
     "docs/reference/providers.md §4.1 Node registered -> Ready LN(15s, p95 30s); the tail as "
     "nodeRegistration's",
     "M"},
    {"spec.workloadCluster.providerID.setBy", "cloud-controller-manager", "",
     "docs/reference/providers.md §0.1: the CAPA and CAPZ MachinePool templates run kubelet with "
     "cloud-provider external",
     "H"},
    {"spec.workloadCluster.providerID.ccmDelay", "{dist: lognormal, median: 2s, p99: 19s}", "",
     "docs/reference/providers.md §4.1 CCM sets providerID LN(2s, p95 10s)", "L"},
    {"spec.workloadCluster.providerID.faults.caseMismatch", "0", "", "no fault unless asked", "-"},
    {"spec.workloadCluster.providerID.faults.missing", "0", "", "no fault unless asked", "-"},
    {"spec.workloadCluster.providerID.faults.wrongFormat", "0", "", "no fault unless asked", "-"},
    {"spec.workloadCluster.providerID.faults.late.probability", "0", "", "no fault unless asked",
     "-"},
    {"spec.workloadCluster.providerID.faults.late.delay", "{dist: constant, value: 60s}", "",
     "mpsim choice; used only when late.probability > 0", "L"},
    {"spec.workloadCluster.controlPlaneReadyAt", "0s", "",
     "mpsim choice: the control plane is up when the run starts", "-"},
    {"spec.workloadCluster.bootstrapDelay", "{dist: constant, value: 2s}", "",
     "assumption: KubeadmConfig data secret ready soon after the pool exists", "L"},
    {"spec.workloadCluster.nodeMonitorGracePeriod", "40s", "50s in recent Kubernetes releases",
     "docs/reference/providers.md §0.1 and §4.4 (kube-controller-manager "
     "--node-monitor-grace-period)",
     "M"},
    {"spec.workloadCluster.bootstrapTokenRotation", "15m", "",
     "CABPK DefaultTokenTTL: a MachinePool's join token and bootstrap data are renewed about "
     "every TTL (docs/reference/providers.md §0.1, §4.4; CAPA #4071 saw user data change every "
     "10-15 min)",
     "M"},
    {"spec.machinePools[].replicas", "1", "",
     "Cluster API defaulting webhook calculateMachinePoolReplicas (docs/reference/capi-core.md §5)",
     "H"},
    {"spec.machinePools[].version", "v1.30.0", "", "mpsim choice (upstream: required)", "-"},
    {"spec.machinePools[].minReadySeconds", "0", "",
     "Cluster API reads an unset minReadySeconds as 0 (docs/reference/capi-core.md §2.2)", "H"},
    {"spec.machinePools[].nodeDeletionTimeout", "10s", "",
     "Cluster API webhook defaultNodeDeletionTimeoutSeconds (docs/reference/capi-core.md §3)", "H"},
    {"spec.machinePools[].annotations", "{}", "", "none", "-"},
    {"spec.machinePools[].nodeResources.cpu", "4", "",
     "mpsim choice (issue 52): a 4-CPU node, also the autoscaler's template node", "-"},
    {"spec.machinePools[].nodeResources.memory", "16Gi", "", "mpsim choice (issue 52)", "-"},
    {"spec.machinePools[].nodeResources.pods", "110", "",
     "kubelet --max-pods, also the clusterapi provider's maxPods default "
     "(docs/reference/autoscaler.md §1, §6.3)",
     "H"},
    {"spec.autoscaler.scanInterval", "10s", "",
     "cluster-autoscaler --scan-interval (docs/reference/autoscaler.md §1)", "H"},
    {"spec.autoscaler.maxNodeProvisionTime", "15m", "",
     "cluster-autoscaler --max-node-provision-time (docs/reference/autoscaler.md §1)", "H"},
    {"spec.autoscaler.scaleDownUnneededTime", "10m", "",
     "cluster-autoscaler --scale-down-unneeded-time (docs/reference/autoscaler.md §1)", "H"},
    {"spec.autoscaler.scaleDownDelayAfterAdd", "10m", "",
     "cluster-autoscaler --scale-down-delay-after-add (docs/reference/autoscaler.md §1)", "H"},
    {"spec.autoscaler.expander", "least-waste", "random before cluster-autoscaler 1.33",
     "cluster-autoscaler --expander (docs/reference/autoscaler.md §1)", "H"},
    {"spec.events[].pods.cpu", "1", "", "mpsim choice: a pod that asks for one CPU", "-"},
    {"spec.events[].pods.memory", "2Gi", "",
     "mpsim choice: a quarter of the default node's memory for a quarter of its CPUs", "-"},
    {"spec.events[].killInstance.count", "1", "", "mpsim choice: one instance per event", "-"},
};

// A distribution mapping that names `dist` is complete as written.
bool NamesDist(const YAML::Node& mapping) {
  const YAML::Node& m = mapping;
  return m.IsMap() && m["dist"].IsDefined();
}

void FillKey(YAML::Node parent, const std::string& key, const YAML::Node& value);

void Merge(YAML::Node target, const YAML::Node& defaults) {
  if (NamesDist(defaults) && NamesDist(target)) return;
  for (auto it = defaults.begin(); it != defaults.end(); ++it) {
    FillKey(target, it->first.Scalar(), it->second);
  }
}

void FillKey(YAML::Node parent, const std::string& key, const YAML::Node& value) {
  const YAML::Node& view = parent;
  const YAML::Node existing = view[key];
  const bool empty_mapping = existing.IsDefined() && existing.IsNull() && value.IsMap();
  if (!existing.IsDefined() || empty_mapping) {
    parent[key] = YAML::Clone(value);
  } else if (existing.IsMap() && value.IsMap()) {
    Merge(parent[key], value);
  }
}

// Walks `steps` from `node`, creating the mappings on the way, and fills the
// last key. A node of the wrong type stops the walk: the converter reports it.
void FillAt(YAML::Node node, const std::vector<PathStep>& steps, size_t i,
            const YAML::Node& value) {
  const PathStep& step = steps[i];
  if (step.kind != PathStep::Kind::kKey) {
    if (!node.IsSequence()) return;
    for (size_t j = 0; j < node.size(); ++j) FillAt(node[j], steps, i + 1, value);
    return;
  }
  if (!node.IsMap()) return;
  if (i + 1 == steps.size()) return FillKey(node, step.key, value);
  const YAML::Node& view = node;
  const YAML::Node child = view[step.key];
  const bool mapping_next = steps[i + 1].kind == PathStep::Kind::kKey;
  if (child.IsDefined() && !child.IsNull()) return FillAt(node[step.key], steps, i + 1, value);
  if (!mapping_next || (!child.IsDefined() && step.in_oneof)) return;
  node[step.key] = YAML::Node(YAML::NodeType::Map);
  FillAt(node[step.key], steps, i + 1, value);
}

}  // namespace

const std::vector<DefaultEntry>& DefaultTable() {
  static const std::vector<DefaultEntry> table = [] {
    std::vector<DefaultEntry> t = kCoreDefaults;
    for (const ProviderRegistration& p : Providers()) {
      const std::vector<DefaultEntry> rows = p.defaults();
      t.insert(t.end(), rows.begin(), rows.end());
    }
    return t;
  }();
  return table;
}

void ApplyDefaults(YAML::Node root) {
  for (const DefaultEntry& d : DefaultTable()) {
    std::vector<PathStep> steps;
    std::string error;
    // The table is tested to resolve and parse; a broken entry fills nothing.
    if (!ResolvePath(proto::Scenario::descriptor(), d.key, &steps, &error)) continue;
    FillAt(root, steps, 0, YAML::Load(d.value));
  }
}

}  // namespace mpsim::scenario
