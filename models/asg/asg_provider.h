// The `asg` InfraProvider: one simulated Auto Scaling Group per pool and
// CAPA's AWSMachinePool controller, run in the provider's own manager.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "models/asg/auto_scaling_group.h"
#include "models/asg/aws_throttle.h"
#include "models/common/infra_provider.h"

namespace mpsim::asg {

class AsgProvider : public InfraProvider {
 public:
  explicit AsgProvider(ProviderContext ctx) : ctx_(ctx) {}
  std::string name() const override { return "asg"; }
  std::string kind() const override;
  void AddPool(const proto::MachinePoolSpec& pool) override;
  void AddControllers(Manager* manager) override;
  int KillInstances(const std::string& pool, int count, Rng* rng) override;
  // Pools with the MachinePoolMachines gate have an AWSMachine, and so a
  // Machine, per instance.
  bool CreatesMachines(const std::string& pool) const override;
  // CAPA's manager caches the bootstrap data secrets it reads (main.go sets
  // no Client.Cache.DisableFor).
  bool CachesSecrets() const override { return true; }

 private:
  ProviderContext ctx_;
  std::map<std::string, std::unique_ptr<AutoScalingGroup>> groups_;  // by pool name
  // One account and region: the first pool's apiThrottling sets its buckets;
  // null when that pool leaves throttling off.
  std::unique_ptr<AwsThrottle> throttle_;
};

}  // namespace mpsim::asg
