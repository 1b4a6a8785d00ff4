// SetupWithManager of machinepool_controller.go and the event-to-request
// mappings (docs/reference/capi-core.md §1.2, §2.6).
#include <algorithm>
#include <set>

#include "api/indexes.h"
#include "controller/capi_names.h"
#include "controller/label_format.h"
#include "controller/machinepool_reconciler.h"
#include "controller/owner_refs.h"
#include "controller/provider_id.h"

namespace mpsim {
namespace {

// predicates.ResourceIsChanged: drop updates that did not change the object
// (resyncs), keep creates and deletes.
template <class T>
bool ResourceIsChanged(const WatchEvent<T>& e) {
  return e.type != WatchEvent<T>::Type::kModified || e.old == nullptr ||
         e.old->meta.resource_version != e.obj.meta.resource_version;
}

// handler.EnqueueRequestForOwner(&MachinePool{}): every MachinePool owner.
std::vector<Request> OwnerMachinePools(const ObjectMeta& meta) {
  std::set<Request> out;
  for (const OwnerReference& r : meta.owner_references) {
    if (r.kind == "MachinePool" && ApiGroup(r.api_version) == capi::kGroup) {
      out.insert({{meta.ns, r.name}});
    }
  }
  return {out.begin(), out.end()};
}

// One MachinePool matched by `field`, else nothing ("exactly 1" rule).
std::vector<Request> SingleMatch(Client* c, const ListOptions<MachinePool>& opts) {
  auto pools = c->MachinePools().List(opts);
  if (pools.size() != 1) return {};
  return {{pools[0]->meta.Key()}};
}

}  // namespace

// SetupWithManager (machinepool_controller.go), docs/reference/capi-core.md §1.2.
void MachinePoolReconciler::Setup(Builder* b) {
  Client* c = deps_.client;
  const ProviderIDMatch match = deps_.opts.provider_id_match;
  b->WatchMachinePools(
      [](const WatchEvent<MachinePool>& e) { return std::vector<Request>{{e.obj.meta.Key()}}; });
  b->WatchClusters([c](const WatchEvent<Cluster>& e) -> std::vector<Request> {
    // predicates.ClusterPausedTransitions: only updates that flip spec.paused.
    if (e.type != WatchEvent<Cluster>::Type::kModified || e.old == nullptr ||
        e.old->spec.paused == e.obj.spec.paused) {
      return {};
    }
    return ClusterToMachinePools(c, e.obj);
  });
  b->WatchBootstrapConfigs([](const WatchEvent<BootstrapConfig>& e) {
    return ResourceIsChanged(e) ? OwnerMachinePools(e.obj.meta) : std::vector<Request>{};
  });
  b->WatchInfraMachinePools([](const WatchEvent<InfraMachinePool>& e) {
    return ResourceIsChanged(e) ? OwnerMachinePools(e.obj.meta) : std::vector<Request>{};
  });
  b->WatchInfraMachines([c](const WatchEvent<InfraMachine>& e) {
    return ResourceIsChanged(e) ? InfraMachineToMachinePoolMapper(c, e.obj)
                                : std::vector<Request>{};
  });
  // WatchesRawSource(ClusterCache.GetClusterSource): every pool of the cluster
  // on connect and disconnect (docs/reference/capi-core.md §1.2).
  b->WatchClusterConnections(
      [c](const WatchEvent<Cluster>& e) { return ClusterToMachinePools(c, e.obj); });
  b->WatchWorkloadNodes([c, match](const WatchEvent<Node>& e) {
    return ResourceIsChanged(e) ? NodeToMachinePool(c, e.obj, match) : std::vector<Request>{};
  });
}

// util.ClusterToTypedObjectsMapper selects by the cluster-name label, which the
// defaulting webhook sets from spec.clusterName; the simulator runs no webhook,
// so spec.clusterName is matched directly.
std::vector<Request> ClusterToMachinePools(Client* c, const Cluster& cluster) {
  ListOptions<MachinePool> opts{.ns = cluster.meta.ns};
  opts.field = [name = cluster.meta.name](const MachinePool& mp) {
    return mp.spec.cluster_name == name;
  };
  std::vector<Request> out;
  for (const auto& mp : c->MachinePools().List(opts)) out.push_back({mp->meta.Key()});
  return out;
}

// nodeToMachinePool (machinepool_controller.go), docs/reference/capi-core.md §2.6:
// by status.nodeRefs name, else by spec.providerIDList.
std::vector<Request> NodeToMachinePool(Client* c, const Node& node, ProviderIDMatch match) {
  // One set of options, its index changed between the two Lists: a copy each
  // would cost a label map and its strings on every Node event.
  ListOptions<MachinePool> opts;
  const auto& ann = node.meta.annotations;
  if (auto it = ann.find(capi::kClusterNameAnnotation); it != ann.end()) {
    opts.match_labels[capi::kClusterNameLabel] = it->second;
  }
  if (auto it = ann.find(capi::kClusterNamespaceAnnotation); it != ann.end()) opts.ns = it->second;

  opts.index_field = kMachinePoolNodeNameField;
  opts.index_value = node.meta.name;
  std::vector<Request> out = SingleMatch(c, opts);
  if (!out.empty()) return out;

  if (node.spec.provider_id.empty()) return {};
  if (match == ProviderIDMatch::kExact) {
    opts.index_field = kMachinePoolProviderIDField;
    opts.index_value = node.spec.provider_id;
    return SingleMatch(c, opts);
  }
  // Up to v1.2.0 the index held last segments; scanning with the legacy key
  // selects the same pools.
  std::optional<std::string_view> key = ProviderIDKey(node.spec.provider_id, match);
  if (!key) return {};
  opts.index_field.clear();
  opts.index_value.clear();
  opts.field = [key = std::string(*key), match](const MachinePool& mp) {
    if (!mp.spec.provider_id_list) return false;
    for (const std::string& id : *mp.spec.provider_id_list) {
      if (ProviderIDKey(id, match) == key) return true;
    }
    return false;
  };
  return SingleMatch(c, opts);
}

// infraMachineToMachinePoolMapper (machinepool_controller_phases.go) with
// util.GetMachinePoolByLabels.
std::vector<Request> InfraMachineToMachinePoolMapper(Client* c, const InfraMachine& im) {
  const Labels& labels = im.meta.labels;
  auto pool = labels.find(capi::kMachinePoolNameLabel);
  if (pool == labels.end()) return {};  // not MachinePool-owned, or the lookup errors
  ListOptions<MachinePool> opts{.ns = im.meta.ns};
  if (auto it = labels.find(capi::kClusterNameLabel); it != labels.end()) {
    opts.match_labels[capi::kClusterNameLabel] = it->second;
  }
  for (const auto& mp : c->MachinePools().List(opts)) {
    if (MustFormatValue(mp->meta.name) == pool->second) return {{mp->meta.Key()}};
  }
  return {};
}

}  // namespace mpsim
