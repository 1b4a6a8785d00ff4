// The parts of the `mig` block's rules (models/mig/mig_schema.h has the whole).
#pragma once

#include <string>
#include <vector>

#include "scenario/scenario.pb.h"
#include "sim/scenario_schema.h"

namespace mpsim::mig {

// Appends one issue per broken rule of a `mig` block's GKE node-pool keys
// (gkeAutoscaling, imageType, labels, taints and the other config fields).
void ValidateGkeKeys(const proto::MigProvider& m, const std::string& path,
                     std::vector<scenario::Issue>* issues);

// Appends one issue per broken rule of a `mig` block's update-policy keys
// (updateMaxSurge, updateMaxUnavailable, updateMinimalAction,
// updateReplacementMethod) for a pool of `replicas`.
void ValidateMigUpdatePolicy(const proto::MigProvider& m, int32_t replicas, const std::string& path,
                             std::vector<scenario::Issue>* issues);

// Appends one issue per broken rule of a `setInfraPoolSpec` edit of `pool`,
// a `mig` pool: only GKE pools take fields, each one of their editable keys
// with a value its block key would take.
void ValidateInfraPoolSpecEdit(const proto::MachinePoolSpec& pool,
                               const proto::Event::SetInfraPoolSpec& edit, const std::string& path,
                               std::vector<scenario::Issue>* issues);

// The keys a GKE pool's edit may set.
const std::vector<std::string>& EditableKeys();

// Why an edit of `pool_name`, a `mig` pool that is not a GKE pool, is refused.
std::string EditRefusal(const std::string& pool_name);

}  // namespace mpsim::mig
