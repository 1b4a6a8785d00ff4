// The one table of scenario defaults (mirrored by docs/defaults.md) and the
// code that fills every key a scenario leaves out.
#pragma once

#include <yaml-cpp/yaml.h>

#include <vector>

namespace mpsim::scenario {

// One default: where it goes, its value and why it is that value.
struct DefaultEntry {
  const char* key;         // YAML path; "[]" stands for every element of a list
  const char* value;       // YAML text
  const char* upstream;    // the upstream default where mpsim's differs, else ""
  const char* source;      // where the value comes from
  const char* confidence;  // H, M or L as in providers.md §4; "-" for mpsim's own choices
};

// Each provider block's rows, one file per cloud (scenario_defaults_<cloud>.cc).
std::vector<DefaultEntry> AsgDefaults();
std::vector<DefaultEntry> VmssDefaults();
std::vector<DefaultEntry> MigDefaults();

// The whole table: the core rows, then each cloud's.
const std::vector<DefaultEntry>& DefaultTable();

// Fills every key that the YAML tree `root` leaves out. A distribution that
// names its `dist` is taken as written; one that does not keeps the default's
// kind and any parameter it leaves out. A oneof member (a provider block) is
// never created, only completed.
void ApplyDefaults(YAML::Node root);

}  // namespace mpsim::scenario
