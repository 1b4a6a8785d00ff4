// The recorder's tally of failed reconciles (summary.json's last_errors):
// one per pool and controller, counting every failure, with the latest
// message and the first and last start times.
#include "sim/recorder.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

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

// Each pool's rows and each object's reconciles, as a filter of the whole
// log would give them, in order; rows of no pool and dropped rows
// (from == to) belong to none.
TEST(RecorderByPool, RowsAndReconcilesOfOnePool) {
  Recorder rec;
  rec.Change(1, "MachinePool", "mp-0", "phase", "", "Provisioning", "mp-0");
  rec.Change(2, "Node", "n-1", "ready", "", "True", "mp-1");
  rec.Change(3, "Cluster", "workload", "phase", "", "Provisioned");
  rec.Change(4, "Node", "n-0", "ready", "True", "True", "mp-0");  // no change: dropped
  rec.Fault(5, "mp-0", "i-0", "launchFailure");
  ASSERT_EQ(rec.RowsOf("mp-0").size(), 2u);
  EXPECT_EQ(rec.RowsOf("mp-0")[0]->to, "Provisioning");
  EXPECT_EQ(rec.RowsOf("mp-0")[1]->object_kind, "Fault");
  ASSERT_EQ(rec.RowsOf("mp-1").size(), 1u);
  EXPECT_EQ(rec.RowsOf("mp-1")[0]->object, "n-1");
  EXPECT_TRUE(rec.RowsOf("mp-2").empty());

  rec.Reconcile({.controller = "machinepool", .object = "mp-0", .start = 1, .end = 2});
  rec.Reconcile({.controller = "machinepool", .object = "mp-1", .start = 1, .end = 2});
  rec.Reconcile({.controller = "awsmachinepool", .object = "mp-0", .start = 3, .end = 4});
  EXPECT_EQ(rec.ReconcilesOf("mp-0"), (std::vector<size_t>{0, 2}));
  EXPECT_EQ(rec.ReconcilesOf("mp-1"), (std::vector<size_t>{1}));
  EXPECT_TRUE(rec.ReconcilesOf("mp-2").empty());
}

// A moved recorder's pool rows still point at its rows.
TEST(RecorderByPool, SurvivesAMove) {
  Recorder rec;
  rec.Change(1, "MachinePool", "mp-0", "phase", "", "Provisioning", "mp-0");
  Recorder moved = std::move(rec);
  ASSERT_EQ(moved.RowsOf("mp-0").size(), 1u);
  EXPECT_EQ(moved.RowsOf("mp-0")[0], &moved.rows().front());
}

}  // namespace
}  // namespace mpsim
