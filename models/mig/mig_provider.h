// The `mig` InfraProvider: one simulated zonal Managed Instance Group per
// pool and CAPG's GCPMachinePool controller, or for `gke: true` pools a GKE
// node pool and GCPManagedMachinePool, all sharing the project's API quota.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "models/common/infra_provider.h"
#include "models/mig/api_quota.h"
#include "models/mig/managed_instance_group.h"
#include "models/mig/node_pool.h"

namespace mpsim::mig {

class MigProvider : public InfraProvider {
 public:
  explicit MigProvider(ProviderContext ctx) : ctx_(ctx) {}
  std::string name() const override { return "mig"; }
  std::string kind() const override;
  std::string KindOf(const proto::MachinePoolSpec& pool) const override;
  void AddPool(const proto::MachinePoolSpec& pool) override;
  void AddControllers(Manager* manager) override;
  int KillInstances(const std::string& pool, int count, Rng* rng) override;
  // CAPG's manager caches the Secrets it reads (main.go sets no
  // Client.Cache.DisableFor); only GCPMachinePools read one, the bootstrap
  // data, and a cache starts an informer for a kind on its first read.
  bool CachesSecrets() const override { return !groups_.empty(); }

 private:
  ProviderContext ctx_;
  void AddGcpMachinePools(Manager* manager, const WorkQueueOptions& q);
  void AddGcpManagedMachinePools(Manager* manager, const WorkQueueOptions& q);
  // The running VMs of a pool, in API order, with the group each is in.
  std::vector<std::pair<ManagedInstanceGroup*, std::string>> Running(const std::string& pool);

  std::map<std::string, std::unique_ptr<ManagedInstanceGroup>> groups_;  // by pool name
  std::map<std::string, std::unique_ptr<NodePool>> node_pools_;          // by pool name (GKE)
  std::map<std::string, MigOptions> options_;
  std::unique_ptr<ApiQuota> quota_;  // one project: the first pool's quota
};

}  // namespace mpsim::mig
