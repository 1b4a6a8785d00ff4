// Where each key of a scenario's YAML tree was written (file, line, column),
// by YAML path, so that a problem found after the tree was edited (an
// overlay merged in, defaults filled) is reported at the text that caused it.
#pragma once

#include <yaml-cpp/yaml.h>

#include <map>
#include <string>

#include "sim/scenario_text.h"

namespace mpsim::scenario {

struct Place {
  std::string file;  // the scenario file or the overlay
  TextPosition position;
};

// By YAML path ("spec.machinePools[0].replicas"; "" for the top level).
using Places = std::map<std::string, Place>;

// Records every key and list item below `node`, whose path is `path`, as
// written in `file`. `node`'s own place is the caller's to record.
void RecordPlaces(const YAML::Node& node, const std::string& path, const std::string& file,
                  Places* places);

// Forgets `path` and every path below it (text that was replaced).
void ForgetPlaces(const std::string& path, Places* places);

// The place of `path`, or of the nearest path above it that has one; a place
// with line 0 when none does.
Place NearestPlace(const std::string& path, const Places& places);

}  // namespace mpsim::scenario
