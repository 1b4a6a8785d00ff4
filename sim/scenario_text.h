// From the bytes of a scenario file to one YAML mapping: text checks, YAML
// syntax errors with their position, empty and multi-document files.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "scenario/loader.h"

namespace mpsim::scenario {

// A 1-based line and column; line 0 means "no position".
struct TextPosition {
  int line = 0;
  int column = 0;
};

// The 1-based position of a yaml-cpp mark (which is 0-based, or null).
TextPosition PositionOf(const YAML::Mark& mark);

// What a text is meant to be, for the messages about its shape.
enum class TextKind {
  kScenario,  // a whole scenario file
  kOverlay,   // a partial one (--overlay): a mapping with `spec` only
};

// Parses `text` into the top-level mapping of a scenario (or an overlay). On
// failure appends one error with its position to *errors and returns false.
bool ParseScenarioText(const std::string& text, const std::string& file, YAML::Node* root,
                       std::vector<ScenarioError>* errors, TextKind kind = TextKind::kScenario);

}  // namespace mpsim::scenario
