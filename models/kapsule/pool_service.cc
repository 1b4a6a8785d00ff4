#include "models/kapsule/pool_service.h"

#include <string_view>
#include <vector>

#include "models/kapsule/semver.h"

namespace mpsim::kapsule {

DesiredPool DesiredOf(const MachinePool& mp, const UpgradePolicy& policy) {
  DesiredPool d;
  d.size = mp.spec.replicas.value_or(3);
  if (const auto& v = mp.spec.template_.spec.version) {
    std::string_view text = *v;
    if (text.starts_with('v')) text.remove_prefix(1);
    d.version = std::string(text);
  }
  d.upgrade_policy = policy;
  return d;
}

ProviderIDList ProviderIdsOf(const KapsulePool& pool) {
  std::vector<SharedString> ids;
  for (const KapsuleNode* node : pool.ListNodes()) {
    if (!node->provider_id.empty()) ids.push_back(node->provider_id);
  }
  return ProviderIDList(std::move(ids));
}

// The order of pool.go Reconcile (§3.1 table): not ready, then version, then
// the other fields, then the list of nodes.
ServiceError PoolService::Reconcile(const DesiredPool& desired, InfraMachinePool* imp) {
  Call("k8s:ListClusters");  // FindCluster: the one cluster, `ready`
  if (ServiceError e = GetOrCreatePool(desired); !e.ok()) return e;
  if (pool_->status() != PoolStatus::kReady) {
    return ServiceError::Transient("pool " + name_ + " is not yet ready: currently " +
                                   PoolStatusName(pool_->status()));
  }
  if (desired.version) {
    bool up_to_date = false;
    if (Status s = IsUpToDate(pool_->version(), *desired.version, &up_to_date); !s.ok()) {
      return {s};
    }
    if (!up_to_date) {
      Call("k8s:UpgradePool");
      if (Status s = pool_->Upgrade(*desired.version); !s.ok()) return {s};
      return ServiceError::Transient("pool " + name_ + " is upgrading to " + *desired.version);
    }
  }
  if (UpdatePool(desired)) {
    return ServiceError::Transient("pool " + name_ + " is being updated");
  }
  Call("k8s:ListNodes");
  imp->spec.provider_id_list = ProviderIdsOf(*pool_);
  imp->status.replicas = pool_->size();
  return ServiceError::Ok();
}

ServiceError PoolService::GetOrCreatePool(const DesiredPool& desired) {
  Call("k8s:ListPools");  // FindPool by name
  if (pool_->status() != PoolStatus::kAbsent) return ServiceError::Ok();
  Call("k8s:CreatePool");
  // A MachinePool without a version creates a pool at the cluster's; the
  // model's cluster has none of its own, so the pool gets "" (never
  // upgraded, as DesiredVersion is nil too).
  if (Status s = pool_->Create(desired.size, desired.version.value_or(""), desired.upgrade_policy);
      !s.ok()) {
    return {s};
  }
  return ServiceError::Ok();
}

// Autoscaling, autohealing, tags and kubelet args are not modelled: CAPS's
// defaults equal what it creates the pool with, so they never differ. With
// autoscaling off only the size is compared (§3.3).
bool PoolService::UpdatePool(const DesiredPool& desired) {
  const bool size = pool_->size() != desired.size;
  const bool policy = pool_->upgrade_policy() != desired.upgrade_policy;
  if (!size && !policy) return false;
  Call("k8s:UpdatePool");
  (void)pool_->Update(desired.size, desired.upgrade_policy);
  return true;
}

// pool.go Delete (§3.4).
ServiceError PoolService::Delete() {
  Call("k8s:ListClusters");
  Call("k8s:ListPools");
  if (pool_->status() == PoolStatus::kAbsent) return ServiceError::Ok();
  if (pool_->status() != PoolStatus::kDeleting) {
    Call("k8s:DeletePool");
    if (Status s = pool_->Delete(); !s.ok()) return {s};
  }
  return ServiceError::Transient("pool is being deleted");
}

void PoolService::Call(const char* api) { rec_->ProviderApiCall(name_, api); }

}  // namespace mpsim::kapsule
