// Reads `kubectl get nodes -o json` (a v1 List of Nodes, Kubernetes API
// reference "Node v1 core"): each Node's creation time, providerID, Ready
// transition and who set its providerID (metadata.managedFields;
// docs/reference/cluster-dumps.md §1).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/calibrate/dump_rows.h"

namespace mpsim::calibrate {

// Appends one row per item of the List `doc` read from `file`. False with
// *error naming the file and JSON path of the first missing or malformed field.
bool ReadNodes(const nlohmann::json& doc, const std::string& file, std::vector<NodeRow>* out,
               std::string* error);

}  // namespace mpsim::calibrate
