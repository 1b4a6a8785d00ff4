// `--set PATH=VALUE` overrides: edits of the YAML tree made before it is
// converted, so that an override is checked exactly like the file's own text.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "sim/scenario_schema.h"

namespace mpsim::scenario {

// An override that was applied: the path it replaced and the argument it came from.
struct AppliedOverride {
  std::string path;    // canonical, e.g. "spec.machinePools[0].replicas"
  std::string origin;  // "--set spec.machinePools[0].replicas=3"
};

// Applies each "PATH=VALUE" in order to the mapping `root`. VALUE is read as
// YAML (a scalar, [a, b] or {k: v}); missing mappings on the way are created.
// A malformed override, a path the schema does not know or a list index out of
// range is reported into *issues, with the argument as its origin.
void ApplyOverrides(YAML::Node root, const std::vector<std::string>& overrides,
                    std::vector<AppliedOverride>* applied, std::vector<Issue>* issues);

}  // namespace mpsim::scenario
