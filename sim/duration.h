// Duration strings as scenarios write them: "250ms", "45s", "10m", "2h",
// combinations such as "1m30s", and "0" / "0s".
#pragma once

#include <string>
#include <string_view>

#include "api/time.h"

namespace mpsim {

// Parses a duration; on failure returns false and says why in *error
// (e.g. "unknown unit 'x' in \"5x\"; use us, ms, s, m or h").
bool ParseDuration(std::string_view text, Duration* out, std::string* error);

// The shortest exact spelling: 90s -> "1m30s", 1500ms -> "1.5s" is NOT used;
// we print "1s500ms". Zero prints "0s".
std::string FormatDuration(Duration d);

}  // namespace mpsim
