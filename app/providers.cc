#include "app/providers.h"

#include "models/asg/asg_provider.h"
#include "models/mig/mig_provider.h"
#include "models/vmss/vmss_provider.h"
#include "sim/test_provider.h"

namespace mpsim {

std::string ProviderName(const proto::MachinePoolSpec& pool) {
  switch (pool.provider_case()) {
    case proto::MachinePoolSpec::kAsg:
      return "asg";
    case proto::MachinePoolSpec::kVmss:
      return "vmss";
    case proto::MachinePoolSpec::kMig:
      return "mig";
    case proto::MachinePoolSpec::kTest:
      return "test";
    default:
      return "none";
  }
}

std::string AvailableProviders() {
  std::string out;
  for (const char* name : {"test", "asg", "vmss", "mig"})
    out += (out.empty() ? "" : ", ") + std::string(name);
  return out;
}

std::unique_ptr<InfraProvider> MakeProvider(const proto::MachinePoolSpec& pool,
                                            const ProviderContext& ctx) {
  switch (pool.provider_case()) {
    case proto::MachinePoolSpec::kTest:
      return std::make_unique<TestProvider>(ctx);
    case proto::MachinePoolSpec::kAsg:
      return std::make_unique<asg::AsgProvider>(ctx);
    case proto::MachinePoolSpec::kVmss:
      return std::make_unique<vmss::VmssProvider>(ctx);
    case proto::MachinePoolSpec::kMig:
      return std::make_unique<mig::MigProvider>(ctx);
    default:
      return nullptr;
  }
}

}  // namespace mpsim
