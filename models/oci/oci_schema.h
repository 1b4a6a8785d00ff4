// The `oci` and `oke` blocks of a scenario file: their rows of the defaults
// table, their rules, and the providers' entries in the registration list
// (models/registry.cc). Both blocks live in this folder: OKE node pools run
// on the same compute instances as instance pools.
#pragma once

#include <string>
#include <vector>

#include "models/registry.h"
#include "scenario/scenario.pb.h"
#include "sim/scenario_schema.h"

namespace mpsim::oci {

// The `oci` block's defaults, with their sources (docs/defaults.md shows the same rows).
std::vector<scenario::DefaultEntry> Defaults();
// The `oke` block's defaults.
std::vector<scenario::DefaultEntry> OkeDefaults();

// Appends one issue per broken rule of `pool`'s `oci` block, found at `path`.
void ValidateBlock(const proto::MachinePoolSpec& pool, const std::string& path,
                   std::vector<scenario::Issue>* issues);
// Appends one issue per broken rule of `pool`'s `oke` block, found at `path`.
void ValidateOkeBlock(const proto::MachinePoolSpec& pool, const std::string& path,
                      std::vector<scenario::Issue>* issues);

// The `oci` provider's entry in the registration list.
ProviderRegistration Registration();
// The `oke` provider's entry in the registration list.
ProviderRegistration OkeRegistration();

}  // namespace mpsim::oci
