// Which InfraProvider serves which provider block of a scenario: the one
// place that knows every model, so that sim/ and the models need not.
#pragma once

#include <memory>
#include <string>

#include "sim/infra_provider.h"

namespace mpsim {

// The provider's short name for a pool ("test", "asg", "vmss", "mig").
std::string ProviderName(const proto::MachinePoolSpec& pool);

// The providers this build has a model for, e.g. "test, asg".
std::string AvailableProviders();

// A new provider for pools like `pool`, or nullptr if this build has no model for it.
std::unique_ptr<InfraProvider> MakeProvider(const proto::MachinePoolSpec& pool,
                                            const ProviderContext& ctx);

}  // namespace mpsim
