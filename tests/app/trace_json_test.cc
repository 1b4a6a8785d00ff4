// trace.json is written as text, not through a JSON tree: it must still be
// exactly what a JSON library prints for the same document (sorted keys,
// escaped strings, plain integers), for runs with faults, errors and several
// pools.
#include "app/trace_json.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/scenario_loader.h"

namespace mpsim {
namespace {

std::string TraceOf(const std::string& scenario) {
  proto::Scenario sc;
  std::vector<ScenarioError> errors;
  EXPECT_TRUE(LoadScenario(std::string(MPSIM_SOURCE_DIR) + "/" + scenario, {}, &sc, &errors))
      << (errors.empty() ? "" : errors[0].String());
  RunOutput out;
  std::string error;
  EXPECT_TRUE(RunScenario(sc, sc.spec().seed(), &out, &error)) << error;
  return TraceJson(out);
}

class TraceJsonBytes : public ::testing::TestWithParam<const char*> {};

TEST_P(TraceJsonBytes, EqualWhatAJsonLibraryPrints) {
  const std::string text = TraceOf(GetParam());
  const nlohmann::json doc = nlohmann::json::parse(text);
  EXPECT_EQ(doc.dump() + "\n", text);
  ASSERT_TRUE(doc.contains("traceEvents"));
  EXPECT_EQ(doc["displayTimeUnit"], "ms");
  const nlohmann::json& first = doc["traceEvents"][0];
  EXPECT_EQ(first["ph"], "M");
  EXPECT_EQ(first["name"], "process_name");
  EXPECT_EQ(first["args"]["name"].get<std::string>().rfind("MachinePool ", 0), 0u);
}

INSTANTIATE_TEST_SUITE_P(Scenarios, TraceJsonBytes,
                         ::testing::Values("scenarios/demo.yaml",
                                           "scenarios/gcp/malformed-url.yaml",
                                           "scenarios/gcp/preemption.yaml",
                                           "scenarios/azure/capz-1503-last-segment.yaml",
                                           "scenarios/storms/upgrade-storm.yaml"));

// Control characters and quotes in a name are escaped as JSON requires.
TEST(TraceJson, EscapesQuotesAndControlCharacters) {
  RunOutput out;
  out.summary.add_pools()->set_name("p");
  out.summary.set_end_time_s(1);
  out.recorder.Change(0, "Fault", "odd\"name\\\t\x01", "kind", "", "x\ny", "p");
  const std::string text = TraceJson(out);
  const nlohmann::json doc = nlohmann::json::parse(text);
  EXPECT_EQ(doc.dump() + "\n", text);
  EXPECT_NE(text.find("odd\\\"name\\\\\\t\\u0001"), std::string::npos) << text;
}

}  // namespace
}  // namespace mpsim
