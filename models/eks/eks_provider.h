// The `eks` InfraProvider: one simulated EKS managed node group per pool and
// CAPA's AWSManagedMachinePool controller, run in the provider's own manager.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "models/common/infra_provider.h"
#include "models/eks/eks_api_throttle.h"
#include "models/eks/node_group.h"

namespace mpsim::eks {

class EksProvider : public InfraProvider {
 public:
  explicit EksProvider(ProviderContext ctx) : ctx_(ctx) {}
  std::string name() const override { return "eks"; }
  std::string kind() const override;
  void AddPool(const proto::MachinePoolSpec& pool) override;
  void AddControllers(Manager* manager) override;
  int KillInstances(const std::string& pool, int count, Rng* rng) override;
  // CAPA's manager caches what it reads (main.go sets no DisableFor).
  bool CachesSecrets() const override { return true; }

 private:
  ProviderContext ctx_;
  std::map<std::string, std::unique_ptr<NodeGroup>> groups_;  // by pool name
  std::map<std::string, std::unique_ptr<Rng>> waiter_rngs_;   // by pool name
  // One account and region: the first pool's apiThrottling sets its buckets;
  // null when that pool leaves throttling off.
  std::unique_ptr<EksApiThrottle> throttle_;
};

}  // namespace mpsim::eks
