// The human summary's lines for failed reconciles (last_errors): one per
// controller, its message on one line and cut short.
#include "app/report/text_report.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "app/report/explain.h"

namespace mpsim {
namespace {

proto::PoolSummary FailingPool() {
  proto::PoolSummary p;
  p.set_name("mp-0");
  p.set_provider("mig");
  p.set_final_phase("Provisioning");
  p.set_not_converged_reason("at the horizon: phase Provisioning");
  proto::ControllerErrors* e = p.add_last_errors();
  e->set_controller("gcpmachinepool");
  e->set_message("GCPMachinePool mp-0 needs exactly one failure domain (zone), got 3");
  e->set_count(19);
  e->set_first_time_s(2);
  e->set_last_time_s(1190.5);
  return p;
}

TEST(ShortMessage, OneLineCutAtACharacterWithDots) {
  EXPECT_EQ(ShortMessage("short"), "short");
  EXPECT_EQ(ShortMessage("a\nb\tc"), "a b c");
  EXPECT_EQ(ShortMessage("abcdefghij", 8), "abcde...");
  // "é" is two bytes: the cut backs off to the character's first byte.
  EXPECT_EQ(ShortMessage("abcd\xc3\xa9xyz", 8), "abcd...");
  EXPECT_EQ(ShortMessage(std::string(500, 'x')).size(), kShortMessage);
}

TEST(LastErrorLines, OnePerControllerWithCountTimesAndMessage) {
  std::ostringstream os;
  PrintLastErrors(os, FailingPool());
  EXPECT_EQ(os.str(),
            "  gcpmachinepool: 19 failed reconciles, 2.0s to 1190.5s; last error: GCPMachinePool "
            "mp-0 needs exactly one failure domain (zone), got 3\n");
}

TEST(LastErrorLines, InTheSummaryAndTheExplanation) {
  proto::RunSummary s;
  *s.add_pools() = FailingPool();
  std::ostringstream summary;
  PrintHumanSummary(summary, s, false);
  EXPECT_NE(summary.str().find("  gcpmachinepool: 19 failed reconciles"), std::string::npos)
      << summary.str();
  std::ostringstream explain;
  PrintExplanation(explain, s.pools(0), false);
  EXPECT_NE(explain.str().find("  gcpmachinepool: 19 failed reconciles"), std::string::npos)
      << explain.str();
}

TEST(LastErrorLines, NoneWithoutErrors) {
  proto::RunSummary s;
  s.add_pools()->set_name("mp-0");
  std::ostringstream os;
  PrintHumanSummary(os, s, false);
  EXPECT_EQ(os.str().find("failed reconcile"), std::string::npos) << os.str();
}

}  // namespace
}  // namespace mpsim
