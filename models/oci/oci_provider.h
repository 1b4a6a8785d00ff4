// The `oci` InfraProvider: one simulated compute instance pool per pool and
// CAPOCI's OCIMachinePool controller (docs/reference/oci-scaleway.md §1).
#pragma once

#include <map>
#include <memory>
#include <string>

#include "models/common/infra_provider.h"
#include "models/oci/instance_pool.h"

namespace mpsim::oci {

class OciProvider : public InfraProvider {
 public:
  explicit OciProvider(ProviderContext ctx) : ctx_(ctx) {}
  std::string name() const override { return "oci"; }
  std::string kind() const override;
  void AddPool(const proto::MachinePoolSpec& pool) override;
  void AddControllers(Manager* manager) override;
  // OCIMachinePoolMachines are not modelled, and deleting one would not
  // shrink the pool anyway (docs/reference/oci-scaleway.md §1.5).
  bool CreatesMachines(const std::string& pool) const override {
    (void)pool;
    return false;
  }
  // The controller reads the bootstrap data secret through controller-runtime's
  // default cache (CAPOCI's main.go disables none).
  bool CachesSecrets() const override { return true; }

 private:
  ProviderContext ctx_;
  std::map<std::string, std::unique_ptr<InstancePool>> pools_;  // by pool name
};

}  // namespace mpsim::oci
