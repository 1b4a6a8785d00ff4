// The `kapsule` InfraProvider: one simulated Scaleway Kapsule pool per
// MachinePool and CAPS's ScalewayManagedMachinePool controller. CAPS makes
// no MachinePool Machines (docs/reference/oci-scaleway.md §3.4), so a single
// machine cannot be deleted: `deleteMachine` is refused for these pools.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "models/common/infra_provider.h"
#include "models/kapsule/kapsule_options.h"
#include "models/kapsule/kapsule_pool.h"

namespace mpsim::kapsule {

class KapsuleProvider : public InfraProvider {
 public:
  explicit KapsuleProvider(ProviderContext ctx) : ctx_(ctx) {}
  std::string name() const override { return "kapsule"; }
  std::string kind() const override;
  void AddPool(const proto::MachinePoolSpec& pool) override;
  void AddControllers(Manager* manager) override;

 private:
  ProviderContext ctx_;
  std::map<std::string, std::unique_ptr<KapsulePool>> pools_;  // by pool name
  std::map<std::string, KapsuleOptions> options_;
};

}  // namespace mpsim::kapsule
