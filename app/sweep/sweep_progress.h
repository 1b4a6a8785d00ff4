// The progress bar of a sweep on a terminal: points done, runs/s and ETA,
// redrawn in place on stderr. Silent when stderr is not a terminal.
#pragma once

#include <chrono>
#include <cstddef>
#include <ostream>
#include <string>

namespace mpsim {

class SweepProgress {
 public:
  // `total_runs` are the runs this invocation has to do (resumed ones left out).
  SweepProgress(std::ostream* out, bool enabled, size_t total_runs, size_t total_points);

  // Redraws the line with `runs` and `points` done.
  void Update(size_t runs, size_t points);
  // Ends the line, so that what follows starts on its own.
  void Finish();

  // The text of the line, for the tests: "[####      ] 3/10 points  120/1000 runs
  // 45.2 runs/s  ETA 0:19".
  static std::string Line(size_t runs, size_t total_runs, size_t points, size_t total_points,
                          double seconds);

 private:
  std::ostream* out_;
  const bool enabled_;
  const size_t total_runs_, total_points_;
  const std::chrono::steady_clock::time_point start_;
  bool drawn_ = false;
};

}  // namespace mpsim
