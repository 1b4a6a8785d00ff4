// The one table of scenario defaults (mirrored by docs/defaults.md) and the
// code that fills every key a scenario leaves out.
#pragma once

#include <yaml-cpp/yaml.h>

#include <vector>

#include "sim/scenario_schema.h"

namespace mpsim::scenario {

// The whole table: the core rows, then each provider's (models/registry.h).
const std::vector<DefaultEntry>& DefaultTable();

// Fills every key that the YAML tree `root` leaves out. A distribution that
// names its `dist` is taken as written; one that does not keeps the default's
// kind and any parameter it leaves out. A oneof member (a provider block) is
// never created, only completed.
void ApplyDefaults(YAML::Node root);

}  // namespace mpsim::scenario
