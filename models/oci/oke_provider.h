// The `oke` InfraProvider: one simulated OKE node pool per pool and
// CAPOCI's OCIManagedMachinePool controller (docs/reference/oci-scaleway.md §2).
#pragma once

#include <map>
#include <memory>
#include <string>

#include "models/common/infra_provider.h"
#include "models/oci/node_pool.h"

namespace mpsim::oci {

class OkeProvider : public InfraProvider {
 public:
  explicit OkeProvider(ProviderContext ctx) : ctx_(ctx) {}
  std::string name() const override { return "oke"; }
  std::string kind() const override;
  void AddPool(const proto::MachinePoolSpec& pool) override;
  void AddControllers(Manager* manager) override;
  // OKE has no per-node delete through CAPOCI, and MachinePool Machines are
  // not modelled (docs/reference/oci-scaleway.md §2.3).
  bool CreatesMachines(const std::string& pool) const override {
    (void)pool;
    return false;
  }

 private:
  ProviderContext ctx_;
  std::map<std::string, std::unique_ptr<NodePool>> pools_;  // by pool name
};

}  // namespace mpsim::oci
