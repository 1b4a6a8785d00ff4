// Converts a YAML tree into a Scenario message by walking the schema with
// protobuf reflection, so that a new field needs no loader code of its own.
#pragma once

#include <google/protobuf/message.h>
#include <yaml-cpp/yaml.h>

#include <string>
#include <string_view>
#include <vector>

#include "api/time.h"
#include "sim/scenario_schema.h"

namespace mpsim::scenario {

// No duration in a scenario may exceed this: it bounds every sum of delays
// far below the int64 range and above any sensible horizon.
inline constexpr Duration kMaxScenarioDuration = 30 * 24 * kHour;

// Fills `msg` from the YAML mapping `node`, whose path is `path` ("" at the top).
// Reports unknown keys, wrong types and unparsable values into *issues and goes
// on past them, so that one pass reports every such problem.
void YamlToMessage(const YAML::Node& node, const std::string& path, google::protobuf::Message* msg,
                   std::vector<Issue>* issues);

// `text` quoted for an error message, with control characters escaped.
std::string Quote(std::string_view text);

}  // namespace mpsim::scenario
