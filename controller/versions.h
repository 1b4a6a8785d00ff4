// status.versions of a MachinePool: kubelet or Machine versions counted per
// version and sorted by semver (internal/util/version).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "api/objects.h"

namespace mpsim {

// Sums replicas per version (empty versions skipped, first-seen order), then
// sorts ascending by semver, ties by string then first-seen order. nullopt for
// an empty result (Go nil).
std::optional<std::vector<VersionCount>> AggregateStatusVersions(
    const std::vector<VersionCount>& versions);

// Counts one more replica of version `v` at the end of `versions`, for
// AggregateStatusVersions: a run of one version folds into its last entry,
// which gives the same sums in the same first-seen order from fewer entries.
// An empty version counts nothing.
void AddVersion(const std::string& v, std::vector<VersionCount>* versions);

// One replica per Machine with a spec.version; the result does not depend
// on the Machines' order.
std::optional<std::vector<VersionCount>> VersionsFromMachines(
    const std::vector<std::shared_ptr<const Machine>>& machines);

}  // namespace mpsim
