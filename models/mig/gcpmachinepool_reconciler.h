// CAPG's GCPMachinePool controller (exp/controllers/gcpmachinepool_controller.go,
// docs/reference/providers.md §3.6.1) driving simulated zonal Managed Instance Groups: an
// instance template named by a hash of its whole content (the version and the
// bootstrap data), the group's target size and template,
// providerIDList from the group's members, and an unconditional 1-minute requeue.
#pragma once

#include <map>
#include <set>
#include <string>

#include "api/reconciler.h"
#include "models/mig/api_quota.h"
#include "models/mig/instance_url.h"
#include "models/mig/managed_instance_group.h"
#include "sim/recorder.h"

namespace mpsim::mig {

inline constexpr const char* kGcpMachinePoolKind = "GCPMachinePool";
inline constexpr const char* kGcpMachinePoolFinalizer =
    "gcpmachinepool.infrastructure.cluster.x-k8s.io";

class GcpMachinePoolReconciler : public Reconciler {
 public:
  struct Pool {
    ManagedInstanceGroup* group;
    std::vector<std::string> zones;  // CAPG supports exactly one
    std::string project;
  };
  GcpMachinePoolReconciler(Client* client, const Clock* clock, Recorder* rec, ApiQuota* quota,
                           std::map<std::string, Pool> pools);
  void Setup(Builder* b) override;
  Status Reconcile(const Request& req, Result* result) override;

 private:
  Status ReconcileNormal(const InfraMachinePool& imp, const MachinePool& mp, const Pool& pool);
  Status ReconcileDelete(const InfraMachinePool& imp, const Pool& pool, Result* result);
  // instancetemplates.Reconcile: the desired template's name in *name,
  // inserted unless a template of that name exists.
  Status ReconcileInstanceTemplate(const InfraMachinePool& imp, const MachinePool& mp,
                                   std::string* name);
  // instancegroupmanagers.Reconcile: the group created, resized and set to
  // the template `name`, in that order.
  Status ReconcileInstanceGroupManager(const InfraMachinePool& imp, const MachinePool& mp,
                                       const Pool& pool, const std::string& name);
  Status WriteStatus(const InfraMachinePool& imp, const Pool& pool);
  // One Compute API call: counted, and refused past the project's quota.
  Status Call(const InfraMachinePool& imp, const char* api);

  Client* client_;
  const Clock* clock_;
  Recorder* rec_;
  ApiQuota* quota_;
  std::map<std::string, Pool> pools_;  // by GCPMachinePool name
  // The instance templates made for each pool: GCE keeps them until the
  // pool is deleted (docs/reference/providers.md §3.6.1).
  std::map<std::string, std::set<std::string>> templates_;
  std::map<std::string, ProviderIdCache> ids_;  // pool -> its members' parsed URLs
};

}  // namespace mpsim::mig
