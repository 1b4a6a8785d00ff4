// The progress line: points, runs, rate and ETA; nothing at all when disabled.
#include "app/sweep/sweep_progress.h"

#include <gtest/gtest.h>

#include <sstream>

namespace mpsim {
namespace {

TEST(SweepProgress, LineShowsPointsRunsRateAndEta) {
  EXPECT_EQ(SweepProgress::Line(120, 1000, 3, 10, 4.0),
            "[##                  ] 3/10 points  120/1000 runs  30.0 runs/s  ETA 0:29");
  EXPECT_EQ(SweepProgress::Line(0, 10, 0, 1, 0.0),
            "[                    ] 0/1 points  0/10 runs  0.0 runs/s  ETA --:--");
}

TEST(SweepProgress, SilentWhenNotATerminal) {
  std::ostringstream out;
  SweepProgress p(&out, /*enabled=*/false, 10, 2);
  p.Update(5, 1);
  p.Finish();
  EXPECT_EQ(out.str(), "");
}

}  // namespace
}  // namespace mpsim
