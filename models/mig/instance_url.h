// CAPG's providerID from a Compute instance URL: the self link must be
// exactly .../projects/<p>/zones/<z>/instances/<n>, anything else is an error.
#pragma once

#include <string>
#include <string_view>

#include "api/status.h"

namespace mpsim::mig {

// The self link of an instance, as listInstances returns it.
std::string InstanceUrl(std::string_view project, std::string_view zone, std::string_view name);

// gce://<project>/<zone>/<name> from a self link; an error naming the URL when
// it is not of the one accepted shape (providers.md §3.5; CAPG's
// GCPMachinePool, exp/controllers/gcpmachinepool_controller.go).
Status ProviderIdFromUrl(std::string_view url, std::string* provider_id);

// gce://<project>/<location>/<name> as GKE pools build it, with no check of a
// URL (providers.md §3.5; CAPG's providerid.NewFromResourceURL, path.Join).
std::string ProviderIdFromResource(std::string_view project, std::string_view location,
                                   std::string_view name);

}  // namespace mpsim::mig
