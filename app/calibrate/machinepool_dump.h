// Reads `kubectl get machinepools.cluster.x-k8s.io -A -o json` (Cluster API
// MachinePool, cluster.x-k8s.io): each pool's name, replicas, version,
// infrastructure kind and providerIDs (docs/reference/cluster-dumps.md §2).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/calibrate/dump_rows.h"

namespace mpsim::calibrate {

// Appends one row per item of the List `doc` read from `file`. False with
// *error naming the file and JSON path of the first missing or malformed field.
bool ReadMachinePools(const nlohmann::json& doc, const std::string& file,
                      std::vector<MachinePoolRow>* out, std::string* error);

}  // namespace mpsim::calibrate
