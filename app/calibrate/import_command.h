// `mpsim import FILE... --out SCENARIO.yaml`: a scenario from the same dumps
// as `mpsim calibrate` (imported_scenario.h), validated by the scenario loader
// before it is written atomically.
#pragma once

#include <string>
#include <vector>

namespace mpsim {

struct ImportArgs {
  std::vector<std::string> files;
  std::string out;  // the scenario's path
};

// 0; 2 after one message when a file cannot be read, none is a MachinePool
// list, a pool's infrastructure kind has no model, or the scenario would not
// load (nothing is written then).
int ImportCommand(const ImportArgs& args);

// The scenario name for the file `path`: its stem, lower-cased, with every
// character a scenario name cannot hold replaced by '-'; "imported" when
// nothing is left.
std::string ImportedScenarioName(const std::string& path);

}  // namespace mpsim
