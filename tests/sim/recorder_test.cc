// The recorder's tally of failed reconciles (summary.json's last_errors):
// one per pool and controller, counting every failure, with the latest
// message and the first and last start times.
#include "sim/recorder.h"

#include <gtest/gtest.h>

namespace mpsim {
namespace {

TEST(RecorderErrors, KeepsTheLatestMessageAndCountsEveryFailure) {
  Recorder rec;
  rec.ReconcileError(2 * kSecond, "mp-0", "gcpmachinepool", "needs one zone, got 2");
  rec.ReconcileError(5 * kSecond, "mp-0", "gcpmachinepool", "needs one zone, got 2");
  rec.ReconcileError(9 * kSecond, "mp-0", "gcpmachinepool", "quota exceeded");
  ASSERT_EQ(rec.errors("mp-0").size(), 1u);
  const ErrorTally& e = rec.errors("mp-0").at("gcpmachinepool");
  EXPECT_EQ(e.message, "quota exceeded");
  EXPECT_EQ(e.count, 3u);
  EXPECT_EQ(e.first, 2 * kSecond);
  EXPECT_EQ(e.last, 9 * kSecond);
}

// Reconciles are reported when they end: one that started earlier but ended
// later neither moves the last time back nor replaces the later message.
TEST(RecorderErrors, OrdersByStartTimeNotByReport) {
  Recorder rec;
  rec.ReconcileError(10 * kSecond, "mp-0", "machine", "later");
  rec.ReconcileError(4 * kSecond, "mp-0", "machine", "earlier");
  const ErrorTally& e = rec.errors("mp-0").at("machine");
  EXPECT_EQ(e.message, "later");
  EXPECT_EQ(e.first, 4 * kSecond);
  EXPECT_EQ(e.last, 10 * kSecond);
  EXPECT_EQ(e.count, 2u);
}

TEST(RecorderErrors, KeptApartByPoolAndController) {
  Recorder rec;
  rec.ReconcileError(1 * kSecond, "mp-0", "machinepool", "a");
  rec.ReconcileError(1 * kSecond, "mp-0", "awsmachinepool", "b");
  rec.ReconcileError(1 * kSecond, "mp-1", "machinepool", "c");
  EXPECT_EQ(rec.errors("mp-0").size(), 2u);
  EXPECT_EQ(rec.errors("mp-1").at("machinepool").message, "c");
  EXPECT_TRUE(rec.errors("mp-2").empty());
}

}  // namespace
}  // namespace mpsim
