// Reads a scenario file into a validated proto::Scenario: YAML parsing, an
// --overlay file merged over its spec, --set overrides, defaults (docs/defaults.md) and semantic
// checks, with errors that name the file, line, column and key.
#pragma once

#include <string>
#include <vector>

#include "scenario/scenario.pb.h"

namespace mpsim {

// One problem with a scenario. `file` is the scenario file, the overlay when the
// offending text came from it, or "--set PATH=VALUE" when it came from an
// override; line and column are 1-based,
// 0 when there is no position (an unreadable file, an override).
struct ScenarioError {
  std::string file;
  int line = 0;
  int column = 0;
  std::string key;  // e.g. "spec.machinePools[0].replicas"; empty for file-level errors
  std::string message;

  // "file:line:col: key: message", leaving out the parts that are empty.
  std::string String() const;
};

// What a command changes in a scenario file before it is checked, in this order.
struct ScenarioEdits {
  std::vector<std::string> overrides;  // --set "PATH=VALUE" each, applied last
  std::string overlay;                 // --overlay FILE (scenario/overlay.h); empty: none
};

// Reads a scenario file, merges the overlay, applies the --set overrides, fills defaults and
// validates. On failure returns false with at least one error; never throws, never aborts.
// With `warnings`, a valid scenario's settings that can never converge are
// appended there, positioned as errors are (scenario::WarnScenario).
bool LoadScenario(const std::string& path, const ScenarioEdits& edits, proto::Scenario* out,
                  std::vector<ScenarioError>* errors,
                  std::vector<ScenarioError>* warnings = nullptr);

// As LoadScenario, for text already in memory; `file_name` is used in the errors.
bool LoadScenarioFromString(const std::string& yaml_text, const std::string& file_name,
                            const ScenarioEdits& edits, proto::Scenario* out,
                            std::vector<ScenarioError>* errors,
                            std::vector<ScenarioError>* warnings = nullptr);

// The scenario text `yaml_text` with the overlay file `overlay` merged over its
// spec, as YAML without comments, for a command that edits the text further
// before loading it (compare). False with the errors LoadScenario would give.
bool OverlaidScenarioText(const std::string& yaml_text, const std::string& file_name,
                          const std::string& overlay, std::string* out,
                          std::vector<ScenarioError>* errors);

}  // namespace mpsim
