// `--overlay FILE`: a partial scenario merged over a scenario's `spec` before
// the --set overrides. It edits the YAML tree before conversion, so that the
// overlay's text is checked exactly like the file's own; the rule is
// docs/scenarios.md's "Overlays".
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "scenario/loader.h"
#include "scenario/places.h"

namespace mpsim::scenario {

// Merges `overlay` (the top-level mapping parsed from `file`) into the
// scenario tree `root`:
// - the overlay's only top-level key is `spec`;
// - a mapping merges key by key into a mapping; a mapping that names `dist`
//   (a distribution, complete as written), a scalar and a list replace what
//   was there; an empty value (`key:`) over a mapping changes nothing;
// - `spec.machinePools` is a list of pools, each merged into the scenario's
//   pool of the same `name`; a name the scenario lacks is an error.
// Each key the overlay writes takes its place in `file` in *places, and what
// it replaced loses its own. A problem of shape is appended to *errors at its
// position in `file`; returns false if there was any.
bool MergeOverlay(YAML::Node root, const YAML::Node& overlay, const std::string& file,
                  Places* places, std::vector<ScenarioError>* errors);

}  // namespace mpsim::scenario
