// The `mig` InfraProvider: one simulated zonal Managed Instance Group per
// pool and CAPG's GCPMachinePool controller, sharing the project's API quota.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "models/mig/api_quota.h"
#include "models/mig/managed_instance_group.h"
#include "sim/infra_provider.h"

namespace mpsim::mig {

class MigProvider : public InfraProvider {
 public:
  explicit MigProvider(ProviderContext ctx) : ctx_(ctx) {}
  std::string name() const override { return "mig"; }
  std::string kind() const override;
  void AddPool(const proto::MachinePoolSpec& pool) override;
  void AddControllers(Manager* manager) override;
  int KillInstances(const std::string& pool, int count, Rng* rng) override;

 private:
  ProviderContext ctx_;
  std::map<std::string, std::unique_ptr<ManagedInstanceGroup>> groups_;  // by pool name
  std::map<std::string, MigOptions> options_;
  std::unique_ptr<ApiQuota> quota_;  // one project: the first pool's quota
};

}  // namespace mpsim::mig
