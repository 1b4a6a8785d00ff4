#include "app/sweep/sweep_progress.h"

#include <cstdio>

namespace mpsim {

SweepProgress::SweepProgress(std::ostream* out, bool enabled, size_t total_runs,
                             size_t total_points)
    : out_(out),
      enabled_(enabled),
      total_runs_(total_runs),
      total_points_(total_points),
      start_(std::chrono::steady_clock::now()) {}

std::string SweepProgress::Line(size_t runs, size_t total_runs, size_t points, size_t total_points,
                                double seconds) {
  constexpr int kWidth = 20;
  const double frac = total_runs ? static_cast<double>(runs) / total_runs : 1.0;
  const int filled = static_cast<int>(frac * kWidth);
  const double rate = seconds > 0 ? runs / seconds : 0;
  char buf[160];
  std::string eta = "--:--";
  if (rate > 0) {
    const long left = static_cast<long>((total_runs - runs) / rate + 0.5);
    std::snprintf(buf, sizeof buf, "%ld:%02ld", left / 60, left % 60);
    eta = buf;
  }
  std::snprintf(buf, sizeof buf, "[%s%s] %zu/%zu points  %zu/%zu runs  %.1f runs/s  ETA %s",
                std::string(filled, '#').c_str(), std::string(kWidth - filled, ' ').c_str(), points,
                total_points, runs, total_runs, rate, eta.c_str());
  return buf;
}

void SweepProgress::Update(size_t runs, size_t points) {
  if (!enabled_) return;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  // \r and erase-line: the bar is redrawn in place.
  *out_ << "\r\033[K" << Line(runs, total_runs_, points, total_points_, seconds) << std::flush;
  drawn_ = true;
}

void SweepProgress::Finish() {
  if (drawn_) *out_ << "\n" << std::flush;
}

}  // namespace mpsim
