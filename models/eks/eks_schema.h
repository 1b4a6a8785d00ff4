// The `eks` block of a scenario file: its rows of the defaults table, its
// rules, and the provider's entry in the registration list (models/registry.cc).
#pragma once

#include <string>
#include <vector>

#include "models/registry.h"
#include "scenario/scenario.pb.h"
#include "sim/scenario_schema.h"

namespace mpsim::eks {

// The block's defaults, with their sources (docs/defaults.md shows the same rows).
std::vector<scenario::DefaultEntry> Defaults();

// Appends one issue per broken rule of `pool`'s `eks` block, found at `path`.
void ValidateBlock(const proto::MachinePoolSpec& pool, const std::string& path,
                   std::vector<scenario::Issue>* issues);

// Appends one issue per broken rule of a `setInfraPoolSpec` edit of `pool`,
// an `eks` pool: the fields are spec.scaling's minSize and maxSize, each a
// count, with the block's rules once the edit is applied to it.
void ValidateEdit(const proto::MachinePoolSpec& pool, const proto::Event::SetInfraPoolSpec& edit,
                  const std::string& path, std::vector<scenario::Issue>* issues);

// The provider's entry in the registration list.
ProviderRegistration Registration();

}  // namespace mpsim::eks
