// RFC 3339 date-times as kubectl and the clouds' CLIs print them:
// "2024-05-01T10:00:00Z", "2024-05-01T10:00:00.123456+00:00",
// "2024-05-01T03:00:00.123-07:00".
#pragma once

#include <cstdint>
#include <string_view>

namespace mpsim::calibrate {

// Microseconds since 1970-01-01T00:00:00Z of `text` (fractions beyond the
// microsecond are dropped). False when `text` is not an RFC 3339 date-time
// with a zone ("Z" or "+hh:mm"); a lower-case "t" or "z" is accepted, as the
// RFC allows.
bool ParseRfc3339(std::string_view text, int64_t* micros);

}  // namespace mpsim::calibrate
