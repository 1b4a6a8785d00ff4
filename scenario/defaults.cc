#include "scenario/defaults.h"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/registry.h"
#include "scenario/scenario.pb.h"
#include "sim/scenario_schema.h"

namespace mpsim::scenario {
namespace {

// Sources: the fact sheets docs/reference/capi-core.md and docs/reference/providers.md.
// docs/reference/providers.md §4 writes LN(median, p95); our lognormals take a p99, so each such
// figure is converted: p99 = median * (p95/median)^(z99/z95), z99/z95 = 2.3263/1.6449, rounded to
// the second.
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

// The value under `key` of a mapping, if it has one. (yaml-cpp's operator[]
// on a mapping that is not const adds the key when it is missing.)
std::optional<YAML::Node> Child(const YAML::Node& map, const std::string& key) {
  for (auto it = map.begin(); it != map.end(); ++it) {
    if (it->first.IsScalar() && it->first.Scalar() == key) return it->second;
  }
  return std::nullopt;
}

bool NamesDist(const YAML::Node& mapping) {
  return mapping.IsMap() && Child(mapping, "dist").has_value();
}

std::optional<YAML::Node> FillValue(YAML::Node map, std::optional<YAML::Node> child,
                                    const std::string& key, const YAML::Node& value);

// A mapping the scenario gave in part gets the default's other keys; a
// distribution that names its `dist` is complete as written.
void Merge(YAML::Node target, const YAML::Node& defaults) {
  if (NamesDist(defaults) && NamesDist(target)) return;
  for (auto it = defaults.begin(); it != defaults.end(); ++it) {
    const std::string& key = it->first.Scalar();
    FillValue(target, Child(target, key), key, it->second);
  }
}

// The table as a tree of its paths. A walk of the document visits each
// mapping once for all the rows below it, rather than once per row, so that
// loading grows with the document and not with rows times pools.
struct PathTree {
  PathStep step;                   // how this node is reached from its parent
  int row = -1;                    // the row that fills this key, if one does
  std::vector<PathTree> children;  // in the order of the rows that first name them
};

void AddRow(PathTree* tree, const std::vector<PathStep>& steps, int row, const char* key) {
  for (const PathStep& step : steps) {
    auto same = [&](const PathTree& c) {
      return c.step.kind == step.kind && c.step.key == step.key && c.step.index == step.index;
    };
    auto it = std::find_if(tree->children.begin(), tree->children.end(), same);
    if (it == tree->children.end()) {
      tree->children.push_back({step, -1, {}});
      it = tree->children.end() - 1;
    }
    tree = &*it;
  }
  // A key is filled before the rows below it are (a list's `[]`, then its
  // elements' keys), as the table's order says; a table that said otherwise
  // would need the walk to interleave, and there is none.
  if (!tree->children.empty() || tree->row >= 0) {
    throw std::logic_error(std::string("the default ") + key +
                           " comes after defaults below it, or twice");
  }
  tree->row = row;
}

const PathTree& DefaultsTree() {
  static const PathTree tree = [] {
    PathTree root;
    const std::vector<DefaultEntry>& table = DefaultTable();
    for (size_t i = 0; i < table.size(); ++i) {
      std::vector<PathStep> steps;
      std::string error;
      // The table is tested to resolve and parse; a broken entry fills nothing.
      if (ResolvePath(proto::Scenario::descriptor(), table[i].key, &steps, &error)) {
        AddRow(&root, steps, static_cast<int>(i), table[i].key);
      }
    }
    return root;
  }();
  return tree;
}

// The table's values, parsed once per scenario (yaml-cpp does not promise
// that threads may share a node); each fill takes a copy.
using Values = std::vector<YAML::Node>;

void FillBelow(YAML::Node node, const PathTree& tree, const Values& values);

// Fills `value` at `key` of `map` where the scenario left it out, or into a
// mapping the scenario gave in part; the node now at `key`.
std::optional<YAML::Node> FillValue(YAML::Node map, std::optional<YAML::Node> child,
                                    const std::string& key, const YAML::Node& value) {
  if (!child) {
    // The mapping holds this very node, not a copy of it.
    YAML::Node added = YAML::Clone(value);
    map.force_insert(key, added);
    return added;
  }
  if (child->IsNull() && value.IsMap()) {
    *child = YAML::Clone(value);
  } else if (child->IsMap() && value.IsMap()) {
    Merge(*child, value);
  }
  return child;
}

// One key of a mapping: fills its row's value, then walks on to the rows
// below it, creating the mapping on the way unless that would pick a oneof
// member. A node of the wrong type stops the walk: the converter reports it.
void FillChild(YAML::Node map, std::optional<YAML::Node> child, const PathTree& c,
               const Values& values) {
  if (c.row >= 0) child = FillValue(map, child, c.step.key, values[c.row]);
  if (c.children.empty()) return;
  if (child && !child->IsNull()) return FillBelow(*child, c, values);
  const bool mapping_next = c.children.front().step.kind == PathStep::Kind::kKey;
  if (!mapping_next || (!child && c.step.in_oneof)) return;
  FillBelow(*FillValue(map, child, c.step.key, YAML::Node(YAML::NodeType::Map)), c, values);
}

void FillBelow(YAML::Node node, const PathTree& tree, const Values& values) {
  const PathTree& first = tree.children.front();
  if (first.step.kind != PathStep::Kind::kKey) {
    if (!node.IsSequence()) return;
    for (auto it = node.begin(); it != node.end(); ++it) FillBelow(*it, first, values);
    return;
  }
  if (!node.IsMap()) return;
  // The mapping's keys as written, read once for all the children.
  std::unordered_map<std::string, YAML::Node> present;
  for (auto it = node.begin(); it != node.end(); ++it) {
    if (it->first.IsScalar()) present.emplace(it->first.Scalar(), it->second);
  }
  for (const PathTree& c : tree.children) {
    const auto found = present.find(c.step.key);
    FillChild(node, found == present.end() ? std::nullopt : std::optional(found->second), c,
              values);
  }
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
  if (DefaultsTree().children.empty()) return;
  Values values;
  for (const DefaultEntry& d : DefaultTable()) values.push_back(YAML::Load(d.value));
  FillBelow(root, DefaultsTree(), values);
}

}  // namespace mpsim::scenario
