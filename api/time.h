// Simulated time: an integer count of microseconds, shared by the controllers
// and the simulator so that no floating-point or wall-clock time leaks in.
#pragma once

#include <cstdint>

namespace mpsim {

// Microseconds since the start of the simulation.
using Time = int64_t;
// A span of simulated time in microseconds.
using Duration = int64_t;

constexpr Duration kMicrosecond = 1;
constexpr Duration kMillisecond = 1000 * kMicrosecond;
constexpr Duration kSecond = 1000 * kMillisecond;
constexpr Duration kMinute = 60 * kSecond;
constexpr Duration kHour = 60 * kMinute;

// Whole seconds as a double, for reports only (never for simulation logic).
inline double ToSeconds(Duration d) { return static_cast<double>(d) / kSecond; }

// The source of "now" for controllers: the simulated clock, or a fake in tests.
class Clock {
 public:
  virtual ~Clock() = default;
  virtual Time Now() const = 0;
};

}  // namespace mpsim
