#include "models/mig/gcpmanagedmachinepool_reconciler.h"

#include <algorithm>
#include <charconv>
#include <string_view>

#include "models/common/infra_pool_report.h"
#include "models/common/node_config_text.h"
#include "models/common/provider_watches.h"
#include "models/mig/gke_config_text.h"
#include "models/mig/instance_url.h"

namespace mpsim::mig {
namespace {

// While GKE is busy (provisioning, reconciling, an operation in progress)
// CAPG requeues after 1 minute; otherwise it returns {} (docs/reference/providers.md §3.6.2).
constexpr Duration kBusyRequeue = kMinute;

// Regional pools divide MP replicas by the number of locations with integer
// division (docs/reference/providers.md §3.6.2: 5 replicas in 3 zones -> 1 per zone); zonal
// ones do not divide. The create divides by len(spec.nodeLocations), or by
// cloud.DefaultNumRegionsPerZone (3) when unset (CAPG cloud/scope/
// managedmachinepool.go ConvertToSdkNodePool); the model divides by the
// `zones` it creates the pool in instead, the same when there are three.
// The size check divides by len(np.locations) (CAPG nodepools/reconcile.go
// checkDiffAndPrepareUpdateSize), so it follows a location change.
int32_t PerZone(int32_t replicas, bool regional, size_t locations) {
  return regional ? replicas / static_cast<int32_t>(locations) : replicas;
}

// What the GCPManagedMachinePool asks of the node pool (the version is the
// MachinePool's).
struct Desired {
  NodePoolConfig config;
  GkeAutoscaling autoscaling;
};

// Validation (models/mig/gke_validate.cc) has checked every edited value,
// so a field that does not parse keeps the block's value.
int32_t CountField(const std::map<std::string, std::string>& spec, const char* key,
                   int32_t fallback) {
  auto it = spec.find(key);
  if (it == spec.end()) return fallback;
  int32_t n = fallback;
  std::from_chars(it->second.data(), it->second.data() + it->second.size(), n);
  return n;
}

// Sets `*field` from the edited text if `key` is there and `parse` reads it;
// text that does not parse keeps the block's value, as CountField does.
template <typename T, typename Parse>
void TextField(const std::map<std::string, std::string>& spec, const char* key, Parse parse,
               T* field) {
  auto it = spec.find(key);
  if (it == spec.end()) return;
  T value;
  std::string error;
  if (parse(it->second, &value, &error)) *field = std::move(value);
}

void ConfigFields(const std::map<std::string, std::string>& spec, NodePoolConfig* c) {
  if (auto it = spec.find(kImageTypeField); it != spec.end()) c->image_type = it->second;
  TextField(spec, kKubernetesLabelsField, ParseLabelsText, &c->labels);
  TextField(spec, kKubernetesTaintsField, ParseTaintsText, &c->taints);
  TextField(spec, kResourceLabelsField, ParseResourceLabelsText, &c->resource_labels);
  TextField(spec, kNetworkTagsField, ParseNetworkTagsText, &c->network_tags);
  TextField(spec, kLinuxSysctlsField, ParseSysctlsText, &c->sysctls);
  if (auto it = spec.find(kLinuxCgroupModeField); it != spec.end()) c->cgroup_mode = it->second;
  // CAPG compares spec.nodeLocations only when set. Unset (in the block and
  // every edit), the desired locations stay the block's zones, which are the
  // pool's: an edit cannot unset them, so only a set value ever differs.
  TextField(spec, kNodeLocationsField, ParseNodeLocationsText, &c->locations);
}

Desired DesiredOf(const InfraMachinePool& imp, const MachinePool& mp,
                  const GcpManagedMachinePoolReconciler::Pool& pool) {
  const std::map<std::string, std::string>& spec = imp.spec.provider_spec;
  Desired d{pool.config, pool.autoscaling};
  d.config.version = mp.spec.template_.spec.version.value_or("");
  ConfigFields(spec, &d.config);
  if (auto it = spec.find(kAutoscalingEnabledField); it != spec.end()) {
    d.autoscaling.enabled = it->second == "true";
  }
  d.autoscaling.min_node_count =
      CountField(spec, kAutoscalingMinField, d.autoscaling.min_node_count);
  d.autoscaling.max_node_count =
      CountField(spec, kAutoscalingMaxField, d.autoscaling.max_node_count);
  return d;
}

// CAPG compares the SDK's autoscaling messages; with autoscaling off, the
// bounds it sends are assumed not to matter.
bool SameAutoscaling(const GkeAutoscaling& a, const GkeAutoscaling& b) {
  return a.enabled == b.enabled && (!a.enabled || a == b);
}

}  // namespace

GcpManagedMachinePoolReconciler::GcpManagedMachinePoolReconciler(Client* client, const Clock* clock,
                                                                 Recorder* rec, ApiQuota* quota,
                                                                 std::map<std::string, Pool> pools)
    : client_(client), clock_(clock), rec_(rec), quota_(quota), pools_(std::move(pools)) {}

void GcpManagedMachinePoolReconciler::Setup(Builder* b) {
  WatchProviderPools(b, kGcpManagedMachinePoolKind);
}

Status GcpManagedMachinePoolReconciler::Reconcile(const Request& req, Result* result) {
  std::shared_ptr<const InfraMachinePool> imp = client_->InfraMachinePools().GetShared(req.key);
  if (imp == nullptr) return Status::Ok();
  auto p = pools_.find(imp->meta.name);
  if (p == pools_.end()) return Status::Invalid("no GKE node pool model for " + req.key.String());
  const OwnerReference* owner = ControllerOwner(imp->meta, "MachinePool");
  if (owner == nullptr) return Status::Ok();
  if (imp->meta.deletion_timestamp) return ReconcileDelete(*imp, p->second, result);
  std::shared_ptr<const MachinePool> mp =
      client_->MachinePools().GetShared({imp->meta.ns, owner->name});
  if (mp == nullptr) return Status::Ok();
  return ReconcileNormal(*imp, *mp, p->second, result);
}

Status GcpManagedMachinePoolReconciler::ReconcileNormal(const InfraMachinePool& imp,
                                                        const MachinePool& mp, const Pool& pool,
                                                        Result* result) {
  if (!HasFinalizer(imp.meta, kGcpManagedMachinePoolFinalizer)) {
    InfraMachinePool with = imp;
    with.meta.finalizers.push_back(kGcpManagedMachinePoolFinalizer);
    if (Status s = client_->InfraMachinePools().Patch(imp, &with); !s.ok()) return s;
  }
  NodePool* np = pool.node_pool;
  if (Status s = Call(imp, "container:nodePools.get"); !s.ok()) return s;
  if (np->status() == NodePoolStatus::kAbsent) {
    if (Status s = Call(imp, "container:nodePools.create"); !s.ok()) return s;
    const Desired d = DesiredOf(imp, mp, pool);
    const int32_t n =
        PerZone(mp.spec.replicas.value_or(1), np->regional(), d.config.locations.size());
    return Busy(np->Create(n, d.config, d.autoscaling), result);
  }
  if (Status s = WriteStatus(imp, pool); !s.ok()) return s;
  switch (np->status()) {
    case NodePoolStatus::kProvisioning:
      result->requeue_after = kBusyRequeue;
      return Status::Ok();
    case NodePoolStatus::kReconciling:
      SetUpdating(imp, true);
      result->requeue_after = kBusyRequeue;
      return Status::Ok();
    case NodePoolStatus::kStopping:
    case NodePoolStatus::kAbsent:
      return Status::Ok();
    case NodePoolStatus::kRunning:
      break;
  }
  return ReconcileChanges(imp, mp, pool, result);
}

// The config (version, image type, labels, taints, resource labels,
// locations, network tags, linuxNodeConfig: one UpdateNodePool with every
// field that differs)
// first, then the autoscaling, then the size, one
// call per reconcile, each followed by a 1-minute requeue; the size check
// compares with initialNodeCount and runs only while autoscaling is disabled
// (docs/reference/providers.md §3.6.2; CAPG nodepools/reconcile.go, Reconcile). Image types
// compare case-insensitively there; here they are kept as given.
Status GcpManagedMachinePoolReconciler::ReconcileChanges(const InfraMachinePool& imp,
                                                         const MachinePool& mp, const Pool& pool,
                                                         Result* result) {
  NodePool* np = pool.node_pool;
  const Desired d = DesiredOf(imp, mp, pool);
  if (np->config() != d.config) {
    if (Status s = Call(imp, "container:nodePools.update"); !s.ok()) return s;
    return Started(imp, np->Update(d.config), result);
  }
  if (!SameAutoscaling(np->autoscaling(), d.autoscaling)) {
    if (Status s = Call(imp, "container:nodePools.setAutoscaling"); !s.ok()) return s;
    return Started(imp, np->SetAutoscaling(d.autoscaling), result);
  }
  const int32_t n = PerZone(mp.spec.replicas.value_or(1), np->regional(), np->locations().size());
  if (!d.autoscaling.enabled && n != np->initial_node_count()) {
    if (Status s = Call(imp, "container:nodePools.setSize"); !s.ok()) return s;
    return Started(imp, np->SetSize(n), result);
  }
  SetUpdating(imp, false);
  return Status::Ok();
}

// CAPG sets GKEMachinePoolUpdating only once the call was accepted.
Status GcpManagedMachinePoolReconciler::Started(const InfraMachinePool& imp, Status s,
                                                Result* result) {
  if (s.ok()) SetUpdating(imp, true);
  return Busy(std::move(s), result);
}

void GcpManagedMachinePoolReconciler::SetUpdating(const InfraMachinePool& imp, bool updating) {
  bool& now = updating_[imp.meta.name];
  if (now == updating) return;
  rec_->Change(clock_->Now(), kGcpManagedMachinePoolKind, imp.meta.name, "GKEMachinePoolUpdating",
               now ? "True" : "False", updating ? "True" : "False", imp.meta.name);
  now = updating;
}

// providerIDList from listManagedInstances of every group: CREATING entries
// are listed too, so a stocked-out VM gives an ID no Node will ever carry
// (docs/reference/providers.md §3.5; that GKE fills their instance URL is assumed there).
Status GcpManagedMachinePoolReconciler::WriteStatus(const InfraMachinePool& imp, const Pool& pool) {
  NodePool* np = pool.node_pool;
  std::vector<SharedString> ids;
  for (const auto& g : np->groups()) {
    if (!g->exists()) continue;
    if (Status s = Call(imp, "compute:instanceGroupManagers.listManagedInstances"); !s.ok())
      return s;
    for (const ManagedInstance* mi : g->ListManagedInstances()) {
      ids.push_back(ProviderIdFromResource(pool.project, g->zone(), mi->name));
    }
  }
  const bool ready = np->status() != NodePoolStatus::kProvisioning;
  const bool provisioned = imp.status.initialization_provisioned.value_or(false) || ready;
  return PatchInfraPoolReport(
      &client_->InfraMachinePools(), imp,
      {.provider_ids = std::move(ids), .ready = ready, .provisioned = provisioned});
}

// Deletion waits for the DeleteNodePool operation, a minute at a time (d).
Status GcpManagedMachinePoolReconciler::ReconcileDelete(const InfraMachinePool& imp,
                                                        const Pool& pool, Result* result) {
  NodePool* np = pool.node_pool;
  if (Status s = Call(imp, "container:nodePools.get"); !s.ok()) return s;
  if (np->status() == NodePoolStatus::kStopping) {
    result->requeue_after = kBusyRequeue;
    return Status::Ok();
  }
  if (np->status() != NodePoolStatus::kAbsent) {
    if (Status s = Call(imp, "container:nodePools.delete"); !s.ok()) return s;
    return Busy(np->Delete(), result);
  }
  if (!HasFinalizer(imp.meta, kGcpManagedMachinePoolFinalizer)) return Status::Ok();
  InfraMachinePool next = imp;
  std::erase(next.meta.finalizers, std::string(kGcpManagedMachinePoolFinalizer));
  return client_->InfraMachinePools().Patch(imp, &next);
}

Status GcpManagedMachinePoolReconciler::Busy(Status s, Result* result) const {
  if (s.ok() || s.code() == Status::Code::kConflict) {
    result->requeue_after = kBusyRequeue;
    return Status::Ok();
  }
  return s;
}

Status GcpManagedMachinePoolReconciler::Call(const InfraMachinePool& imp, const char* api) {
  rec_->ProviderApiCall(imp.meta.name, api);
  if (!std::string_view(api).starts_with("compute:") || quota_->Take(clock_->Now())) {
    return Status::Ok();
  }
  rec_->Fault(clock_->Now(), imp.meta.name, imp.meta.name, "rateLimitExceeded");
  return Status::Throttled(
      std::string("googleapi: Error 403: Quota exceeded (rateLimitExceeded) on ") + api);
}

}  // namespace mpsim::mig
