// The `vmss` InfraProvider: one simulated scale set per pool and CAPZ's
// AzureMachinePool controller (and, for pools that make them, the
// AzureMachinePoolMachine controller), sharing the subscription's ARM buckets.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "models/common/infra_provider.h"
#include "models/vmss/arm_throttle.h"
#include "models/vmss/virtual_machine_scale_set.h"

namespace mpsim::vmss {

class VmssProvider : public InfraProvider {
 public:
  explicit VmssProvider(ProviderContext ctx) : ctx_(ctx) {}
  std::string name() const override { return "vmss"; }
  std::string kind() const override;
  void AddPool(const proto::MachinePoolSpec& pool) override;
  void AddControllers(Manager* manager) override;
  // Spot evictions (policy Delete) of running VMs, 30 s after the notice.
  int KillInstances(const std::string& pool, int count, Rng* rng) override;
  // Pools with `machinePoolMachines` get AzureMachinePoolMachines, and so
  // MachinePool Machines, whose Node drains for `drainTime`.
  bool CreatesMachines(const std::string& pool) const override;
  Duration DrainTime(const std::string& pool) const override;
  // The AzureMachinePoolMachine controller checks each VM's Node.
  bool ReadsWorkloadNodes() const override { return true; }

 private:
  ProviderContext ctx_;
  std::map<std::string, std::unique_ptr<VirtualMachineScaleSet>> sets_;  // by pool name
  std::map<std::string, VmssOptions> options_;
  std::unique_ptr<ArmThrottle> throttle_;  // one subscription: the first pool's buckets
};

}  // namespace mpsim::vmss
