// apiServer.maxObjectBytes end to end (docs/reference/capi-core.md §1.15):
// the MachinePool controller's writes that would grow the pool past etcd's
// limit fail with etcd's error, every pass after that fails the same way,
// and without the limit the same pool converges. The key is defaulted to
// etcd's 1.5 MiB.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/world.h"
#include "scenario/loader.h"

namespace mpsim {
namespace {

proto::Scenario Load(const std::string& path, const std::vector<std::string>& overrides) {
  proto::Scenario sc;
  std::vector<ScenarioError> errors;
  EXPECT_TRUE(LoadScenario(std::string(MPSIM_SOURCE_DIR) + "/" + path, {overrides}, &sc, &errors))
      << (errors.empty() ? "" : errors[0].String());
  return sc;
}

int Rows(const RunOutput& out, const std::string& kind, const std::string& field) {
  int n = 0;
  for (const TimelineRow& r : out.recorder.rows()) n += r.object_kind == kind && r.field == field;
  return n;
}

TEST(RequestLimit, DefaultsToEtcds) {
  EXPECT_EQ(Load("scenarios/demo.yaml", {}).spec().api_server().max_object_bytes(), 1572864u);
}

TEST(RequestLimit, APoolPastTheLimitKeepsFailingWithEtcdsError) {
  RunOutput out;
  std::string error;
  ASSERT_TRUE(RunScenario(Load("scenarios/edge/request-too-large.yaml", {}), 1, &out, &error))
      << error;
  int too_large = 0, other_errors_later = 0;
  for (const ReconcileSpan& s : out.recorder.reconciles()) {
    if (s.controller != "machinepool" || s.outcome.rfind("error", 0) != 0) continue;
    if (s.outcome ==
        "error: failed to patch MachinePool default/mp-0: etcdserver: request is too "
        "large") {
      ++too_large;
    } else if (s.start > 69 * kSecond) {
      ++other_errors_later;
    }
  }
  EXPECT_GT(too_large, 10);
  EXPECT_EQ(other_errors_later, 0);
  // 93 nodeRefs were stored (with 139 providerIDs: 8192 + 139 * 20 + 93 * 99
  // = 20179 bytes, under 20480); none after.
  EXPECT_EQ(Rows(out, "MachinePool", "nodeRef"), 93);
  EXPECT_FALSE(out.summary.pools(0).converged());
  EXPECT_EQ(out.summary.pools(0).ready_replicas(), 50);
}

TEST(RequestLimit, ZeroTurnsItOff) {
  RunOutput out;
  std::string error;
  ASSERT_TRUE(RunScenario(
      Load("scenarios/edge/request-too-large.yaml", {"spec.apiServer.maxObjectBytes=0"}), 1, &out,
      &error))
      << error;
  EXPECT_EQ(Rows(out, "MachinePool", "nodeRef"), 150);
  EXPECT_TRUE(out.summary.pools(0).converged());
}

}  // namespace
}  // namespace mpsim
