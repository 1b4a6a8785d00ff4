// The `rosa` InfraProvider: one simulated ROSA HCP NodePool per pool and
// CAPA's ROSAMachinePool controller, run in the provider's own manager.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "models/common/infra_provider.h"
#include "models/rosa/node_pool.h"
#include "models/rosa/rosa_api_throttle.h"

namespace mpsim::rosa {

class RosaProvider : public InfraProvider {
 public:
  explicit RosaProvider(ProviderContext ctx) : ctx_(ctx) {}
  std::string name() const override { return "rosa"; }
  std::string kind() const override;
  void AddPool(const proto::MachinePoolSpec& pool) override;
  void AddControllers(Manager* manager) override;
  int KillInstances(const std::string& pool, int count, Rng* rng) override;
  // CAPA's manager caches what it reads (main.go sets no DisableFor).
  bool CachesSecrets() const override { return true; }

 private:
  ProviderContext ctx_;
  std::map<std::string, std::unique_ptr<NodePool>> pools_;  // by pool name
  // One account: the first pool's apiThrottling sets the buckets; null when
  // that pool leaves throttling off.
  std::unique_ptr<RosaApiThrottle> throttle_;
};

}  // namespace mpsim::rosa
