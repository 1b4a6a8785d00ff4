// `mpsim compare SCENARIO --providers asg,vmss,mig`: one scenario run on every
// cloud (each pool's provider block renamed), the summaries side by side.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mpsim {

struct CompareProvidersArgs {
  std::string scenario;
  std::vector<std::string> providers = {"asg", "vmss", "mig"};
  std::string overlay;  // --overlay FILE, merged before the blocks are renamed; empty: none
  std::string out_dir;  // empty: results/<scenario-name>-compare
  std::optional<uint64_t> seed;
  bool json = false;
};

// The scenario's YAML with every pool's provider block replaced by a
// `provider` block that keeps only the keys every cloud shares (zones,
// capacity, launchDelay, deleteDelay; DESIGN.md), so that each cloud's own
// keys take that cloud's defaults. False with *error on a malformed file.
bool RetargetScenario(const std::string& yaml_text, const std::string& provider, std::string* out,
                      std::string* error);

// Runs the scenario (its overlay merged) once per provider into <out>/<provider>/, prints the
// metrics per pool with one column per provider (or JSON) and writes
// <out>/compare.json. Exit 0, or 2 on bad input.
int CompareProvidersCommand(const CompareProvidersArgs& args);

}  // namespace mpsim
