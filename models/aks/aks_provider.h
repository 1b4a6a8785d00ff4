// The `aks` InfraProvider: per pool an AKS agent pool over its scale set and
// the ASO ManagedClustersAgentPool in front of it, driven by CAPZ's
// AzureManagedMachinePool or AzureASOManagedMachinePool controller; the
// pools share the subscription's ARM buckets.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "models/aks/agent_pool.h"
#include "models/aks/aks_options.h"
#include "models/aks/arm_bucket.h"
#include "models/aks/aso_agent_pool.h"
#include "models/aks/scale_set.h"
#include "models/common/infra_provider.h"

namespace mpsim::aks {

class AksProvider : public InfraProvider {
 public:
  explicit AksProvider(ProviderContext ctx) : ctx_(ctx) {}
  std::string name() const override { return "aks"; }
  std::string kind() const override { return kAzureManagedMachinePoolKind; }
  std::string KindOf(const proto::MachinePoolSpec& pool) const override;
  void AddPool(const proto::MachinePoolSpec& pool) override;
  void AddControllers(Manager* manager) override;
  // The AzureASOManagedMachinePool lists the workload Nodes.
  bool ReadsWorkloadNodes() const override;

 private:
  struct Pool {
    AksOptions opts;
    std::unique_ptr<ScaleSet> vmss;
    std::unique_ptr<AgentPool> aks;
    std::unique_ptr<AsoAgentPool> aso;
  };
  void AddManagedMachinePools(Manager* manager, const WorkQueueOptions& q);
  void AddAsoManagedMachinePools(Manager* manager, const WorkQueueOptions& q);

  ProviderContext ctx_;
  std::map<std::string, Pool> pools_;  // by pool name
  std::unique_ptr<ArmBuckets> arm_;    // one subscription: the first pool's buckets
};

}  // namespace mpsim::aks
