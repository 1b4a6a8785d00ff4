// `mpsim schema`: a JSON Schema (draft-07) of scenario files, for editors that
// complete and check YAML against one (yaml-language-server). It is generated
// from the scenario message's descriptors the way the loader reads them
// (sim/scenario_schema.h: json_name keys, the nested `provider` oneof, every
// int64 a duration), with each key's proto comment as its description and the
// defaults table's value (docs/defaults.md) as its default.
#pragma once

#include <nlohmann/json.hpp>

namespace mpsim::scenario {

// What sim/duration.h parses: "0", or groups of a number and a unit ("1m30s").
inline constexpr const char* kDurationPattern = "^(0|([0-9]+(\\.[0-9]+)?(h|m|s|ms|us))+)$";

// The whole schema. Every mapping has additionalProperties false, so that an
// editor flags a misspelt key as the loader does.
nlohmann::ordered_json ScenarioJsonSchema();

}  // namespace mpsim::scenario
