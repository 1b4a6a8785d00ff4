#include "models/aks/azureasomanagedmachinepool_reconciler.h"

#include <algorithm>

#include "models/aks/azuremanagedmachinepool_reconciler.h"
#include "models/aks/scale_set.h"
#include "models/common/provider_watches.h"

namespace mpsim::aks {
namespace {

// ASO resources count as ready only with Ready True at their generation (rr:269-309).
bool AsoResourceReady(const AsoAgentPool& aso) {
  const AsoReady& r = aso.ready();
  return r.present && r.status && r.observed_generation >= aso.generation();
}

// Label values are cut to 63 characters (actl:291-302).
std::string LabelValue(const std::string& v) { return v.substr(0, 63); }

}  // namespace

AzureAsoManagedMachinePoolReconciler::AzureAsoManagedMachinePoolReconciler(
    Client* client, const Clock* clock, Recorder* rec, std::map<std::string, Pool> pools)
    : client_(client), clock_(clock), rec_(rec), pools_(std::move(pools)) {}

// actl:76-100: its own kind and MachinePools through the infrastructure
// reference; the ASO resources' watch is wired by the provider
// (AksProvider::AddControllers). No Node watch.
void AzureAsoManagedMachinePoolReconciler::Setup(Builder* b) {
  WatchProviderPools(b, kAzureAsoManagedMachinePoolKind);
}

Status AzureAsoManagedMachinePoolReconciler::Reconcile(const Request& req, Result* result) {
  std::shared_ptr<const InfraMachinePool> imp = client_->InfraMachinePools().GetShared(req.key);
  if (imp == nullptr) return Status::Ok();
  auto p = pools_.find(imp->meta.name);
  if (p == pools_.end()) return Status::Invalid("no AKS agent pool model for " + req.key.String());
  const OwnerReference* owner = ControllerOwner(imp->meta, "MachinePool");
  if (owner == nullptr) return WriteStatus(*imp, false, nullptr, std::nullopt);
  std::shared_ptr<const MachinePool> mp =
      client_->MachinePools().GetShared({imp->meta.ns, owner->name});
  if (mp == nullptr) {  // actl:158-165: a GET of the owner that fails
    if (Status w = WriteStatus(*imp, false, nullptr, std::nullopt); !w.ok()) return w;
    return Status::NotFound("machinepools.cluster.x-k8s.io \"" + owner->name + "\" not found");
  }
  if (imp->meta.deletion_timestamp) return ReconcileDelete(*imp, p->second);
  return ReconcileNormal(*imp, *mp, p->second, result);
}

Status AzureAsoManagedMachinePoolReconciler::ReconcileNormal(const InfraMachinePool& imp,
                                                             const MachinePool& mp,
                                                             const Pool& pool, Result* result) {
  if (!HasFinalizer(imp.meta, kAzureAsoManagedMachinePoolFinalizer)) {  // actl:209-213
    InfraMachinePool with = imp;
    with.meta.finalizers.push_back(kAzureAsoManagedMachinePoolFinalizer);
    with.status.ready = false;
    result->requeue = true;
    return client_->InfraMachinePools().Patch(imp, &with);
  }
  bool ready = false;
  if (Status s = ApplyAgentPool(imp, mp, pool, &ready); !s.ok() || !ready) {
    if (Status w = WriteStatus(imp, false, nullptr, std::nullopt); !w.ok()) return w;
    return s;
  }
  std::vector<SharedString> ids;
  bool complete = true;
  if (Status s = ListProviderIds(mp, pool, &ids, &complete); !s.ok() || !complete) {
    if (Status w = WriteStatus(imp, false, nullptr, std::nullopt); !w.ok()) return w;
    if (s.ok()) result->requeue = true;  // actl:270-277
    return s;
  }
  const int32_t replicas = pool.aso->status_count().value_or(0);  // actl:281
  if (mp.meta.annotations.contains(kReplicasManagedByAnnotation) &&
      mp.spec.replicas != replicas) {  // actl:282-284
    MachinePool next = mp;
    next.spec.replicas = replicas;
    if (Status s = client_->MachinePools().Patch(mp, &next); !s.ok()) return s;
  }
  return WriteStatus(imp, true, &ids, replicas);
}

// The mutators: version from the MachinePool (mut:73-100); the autoscaling
// annotation (mut:102-128); the count from replicas unless the MachinePool
// has replicas-managed-by and the pool a status.count (mut:130-171). A
// kind seen for the first time is only recorded (rr:134-142).
Status AzureAsoManagedMachinePoolReconciler::ApplyAgentPool(const InfraMachinePool& imp,
                                                            const MachinePool& mp, const Pool& pool,
                                                            bool* ready) {
  if (!imp.meta.annotations.contains(kAsoResourcesAnnotation)) {
    InfraMachinePool next = imp;
    next.meta.annotations[kAsoResourcesAnnotation] = "ManagedClustersAgentPool";
    next.status.ready = false;
    return client_->InfraMachinePools().Patch(imp, &next);
  }
  const bool autoscaling = pool.opts->autoscaling;
  auto managed_by = mp.meta.annotations.find(kReplicasManagedByAnnotation);
  const bool annotated = managed_by != mp.meta.annotations.end();
  if (autoscaling && !annotated) {
    MachinePool next = mp;
    next.meta.annotations[kReplicasManagedByAnnotation] = kAksReplicasManager;
    if (Status s = client_->MachinePools().Patch(mp, &next); !s.ok()) return s;
  } else if (autoscaling && managed_by->second != kAksReplicasManager) {
    return Status::Invalid("failed to reconcile autoscaling: MachinePool replicas are managed by " +
                           managed_by->second.str());
  } else if (!autoscaling && annotated && managed_by->second == kAksReplicasManager) {
    MachinePool next = mp;
    next.meta.annotations.erase(kReplicasManagedByAnnotation);
    if (Status s = client_->MachinePools().Patch(mp, &next); !s.ok()) return s;
  }
  AsoAgentPoolSpec spec;
  const std::string v = mp.spec.template_.spec.version.value_or("");
  spec.orchestrator_version = !v.empty() && v[0] == 'v' ? v.substr(1) : v;
  spec.count = pool.aso->exists() ? pool.aso->spec().count : std::nullopt;
  const bool keep_count = (annotated || autoscaling) && pool.aso->status_count();
  if (mp.spec.replicas && !keep_count) spec.count = mp.spec.replicas;
  if (!pool.aso->exists()) {
    pool.aso->set_owner({imp.meta.ns, imp.meta.name});
    pool.aso->Create(spec, "manage");
  } else {
    pool.aso->Update(spec, pool.aso->reconcile_policy());
  }
  *ready = AsoResourceReady(*pool.aso);
  return Status::Ok();
}

Status AzureAsoManagedMachinePoolReconciler::ListProviderIds(const MachinePool& mp,
                                                             const Pool& pool,
                                                             std::vector<SharedString>* ids,
                                                             bool* complete) {
  ObjectClient<Node>* nodes = nullptr;
  if (Status s = client_->WorkloadNodes({mp.meta.ns, mp.spec.cluster_name}, &nodes); !s.ok()) {
    return s;
  }
  ListOptions<Node> opts;
  opts.match_labels[kAgentPoolLabel] = LabelValue(pool.opts->agent_pool_name);
  opts.match_labels[kClusterLabel] = LabelValue(pool.opts->node_resource_group);
  for (const auto& node : nodes->List(opts)) {
    if (node->spec.provider_id.empty()) {
      *complete = false;
      return Status::Ok();
    }
    ids->push_back(node->spec.provider_id);
  }
  std::sort(ids->begin(), ids->end(),
            [](const SharedString& a, const SharedString& b) { return a.str() < b.str(); });
  return Status::Ok();
}

Status AzureAsoManagedMachinePoolReconciler::WriteStatus(const InfraMachinePool& imp, bool ready,
                                                         const std::vector<SharedString>* ids,
                                                         std::optional<int32_t> replicas) {
  InfraMachinePool next = imp;
  next.status.ready = ready;
  if (ids != nullptr) {
    const bool same = imp.spec.provider_id_list &&
                      imp.spec.provider_id_list->size() == ids->size() &&
                      std::equal(ids->begin(), ids->end(), imp.spec.provider_id_list->begin());
    if (!same) next.spec.provider_id_list = *ids;
    next.status.initialization_provisioned = true;
  }
  if (replicas) next.status.replicas = replicas;
  if (next == imp) return Status::Ok();
  if (Status s = client_->InfraMachinePools().Patch(imp, &next); !s.ok()) return s;
  const bool was = imp.status.ready.value_or(false);
  if (was != ready) {
    rec_->Change(clock_->Now(), kAzureAsoManagedMachinePoolKind, imp.meta.name, "status.ready",
                 was ? "true" : "false", ready ? "true" : "false", imp.meta.name);
  }
  return Status::Ok();
}

// actl:333-341: the owned resources are deleted; while any is left the pass
// returns {} and the ASO watch brings the next one.
Status AzureAsoManagedMachinePoolReconciler::ReconcileDelete(const InfraMachinePool& imp,
                                                             const Pool& pool) {
  if (pool.aso->exists()) {
    pool.aso->Delete();
    return Status::Ok();
  }
  if (!HasFinalizer(imp.meta, kAzureAsoManagedMachinePoolFinalizer)) return Status::Ok();
  InfraMachinePool next = imp;
  std::erase(next.meta.finalizers, std::string(kAzureAsoManagedMachinePoolFinalizer));
  return client_->InfraMachinePools().Patch(imp, &next);
}

}  // namespace mpsim::aks
