// How providerIDs are compared: the key under which a Node and a
// spec.providerIDList entry meet (exact at HEAD, last segment up to v1.2.0).
#pragma once

#include <optional>
#include <string>

#include "controller/options.h"

namespace mpsim {

// The match key of `id`, or nullopt if the id can never match (empty, or
// invalid for the legacy parser: it must match ^[^:]+://.*[^/]$).
std::optional<std::string> ProviderIDKey(const std::string& id, ProviderIDMatch match);

}  // namespace mpsim
