// The deletion of a Cluster (cluster_controller.go reconcileDelete,
// getDescendants, filterOwnedDescendants; docs/reference/cluster-deletion.md
// §2): owned descendants are deleted, and the finalizer stays until no
// descendant is left.
#include <algorithm>
#include <string>

#include "controller/capi_names.h"
#include "controller/cluster_reconciler.h"
#include "controller/errors.h"
#include "controller/owner_refs.h"

namespace mpsim {
namespace {

// deleteRequeueAfter
constexpr Duration kDeleteRequeueAfter = 5 * kSecond;

// util.IsOwnedByObject: a reference of the Cluster's group and kind, by name.
bool IsOwnedByObject(const ObjectMeta& obj, const Cluster& cluster) {
  return std::any_of(obj.owner_references.begin(), obj.owner_references.end(),
                     [&](const OwnerReference& r) {
                       return ApiGroup(r.api_version) == capi::kGroup && r.kind == "Cluster" &&
                              r.name == cluster.meta.name;
                     });
}

template <class T>
std::vector<std::string> Names(const std::vector<std::shared_ptr<const T>>& objs) {
  std::vector<std::string> names;
  for (const auto& o : objs) names.push_back(o->meta.name);
  std::sort(names.begin(), names.end());
  return names;
}

// clog.StringListToString: the first five names, then how many more.
std::string StringListToString(const std::vector<std::string>& names) {
  constexpr size_t kMaxNames = 5;
  std::string out;
  for (size_t i = 0; i < names.size() && i < kMaxNames; ++i) out += (i ? ", " : "") + names[i];
  if (names.size() > kMaxNames) {
    out += ", ... (" + std::to_string(names.size() - kMaxNames) + " more)";
  }
  return out;
}

}  // namespace

size_t ClusterDescendants::ObjectsPendingDeleteCount() const {
  return machine_pools.size() + worker_machines.size() + control_plane_machines.size();
}

std::vector<std::string> ClusterDescendants::ObjectsPendingDeleteNames() const {
  std::vector<std::string> out;
  if (!control_plane_machines.empty()) {
    out.push_back("Control plane Machines: " + StringListToString(Names(control_plane_machines)));
  }
  if (!machine_pools.empty())
    out.push_back("MachinePools: " + StringListToString(Names(machine_pools)));
  if (!worker_machines.empty())
    out.push_back("Worker Machines: " + StringListToString(Names(worker_machines)));
  return out;
}

Status ClusterReconciler::GetDescendants(ClusterScope* s) {
  const Cluster& cluster = *s->cluster;
  Labels selector;
  selector[capi::kClusterNameLabel] = cluster.meta.name;
  ClusterDescendants d;
  d.machine_pools = client_->MachinePools().List({.ns = cluster.meta.ns, .match_labels = selector});
  auto machines = client_->Machines().List({.ns = cluster.meta.ns, .match_labels = selector});
  // Split machines into control plane and worker machines.
  for (auto& m : machines) {
    const bool cp = m->meta.labels.find(capi::kMachineControlPlaneLabel) != m->meta.labels.end();
    (cp ? d.control_plane_machines : d.worker_machines).push_back(std::move(m));
  }
  s->descendants = std::move(d);
  s->get_descendants_succeeded = true;
  return Status::Ok();
}

std::vector<OwnedDescendant> FilterOwnedDescendants(const ClusterDescendants& d,
                                                    const Cluster& cluster) {
  std::vector<OwnedDescendant> owned;
  for (const auto& mp : d.machine_pools) {
    if (IsOwnedByObject(mp->meta, cluster)) owned.push_back({.machine_pool = mp});
  }
  // Worker Machines, then control plane Machines last (no control plane object).
  for (const auto* list : {&d.worker_machines, &d.control_plane_machines}) {
    for (const auto& m : *list) {
      if (IsOwnedByObject(m->meta, cluster)) owned.push_back({.machine = m});
    }
  }
  return owned;
}

Status ClusterReconciler::ReconcileDelete(ClusterScope* s, Result* result) {
  const Cluster& cluster = *s->cluster;
  if (!s->get_descendants_succeeded) {  // If it failed to get descendants, no-op.
    s->deleting_reason = "InternalError";
    return Status::Ok();
  }
  std::vector<OwnedDescendant> children = FilterOwnedDescendants(s->descendants, cluster);
  std::vector<Status> errs;
  for (const OwnedDescendant& child : children) {
    if (child.Meta().deletion_timestamp) continue;  // Don't handle deleted child
    const ObjectKey key = child.Meta().Key();
    Status st =
        child.machine_pool ? client_->MachinePools().Delete(key) : client_->Machines().Delete(key);
    if (!st.ok()) {
      errs.push_back(Wrap(st, "error deleting cluster " + cluster.meta.ns + "/" +
                                  cluster.meta.name + ": failed to delete " +
                                  (child.machine_pool ? "MachinePool " : "Machine ") + key.name));
    }
  }
  if (!errs.empty()) {
    s->deleting_reason = "InternalError";
    return Aggregate(errs);
  }
  if (s->descendants.ObjectsPendingDeleteCount() > 0) {
    s->deleting_reason = "WaitingForWorkersDeletion";
    for (const std::string& n : s->descendants.ObjectsPendingDeleteNames()) {
      s->deleting_message += (s->deleting_message.empty() ? "* " : "\n* ") + n;
    }
    // Requeue so we can check the next time to see if there are still any descendants left.
    result->requeue_after = kDeleteRequeueAfter;
    return Status::Ok();
  }
  s->deleting_reason = "DeletionCompleted";
  std::erase(s->cluster->meta.finalizers, std::string(capi::kClusterFinalizer));
  client_->RecordEvent(cluster.meta.Key(), "Normal", "Deleted",
                       "Cluster " + cluster.meta.name + " has been deleted");
  return Status::Ok();
}

}  // namespace mpsim
