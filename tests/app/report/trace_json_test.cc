// trace.json is written as text, not through a JSON tree: it must still be
// exactly what a JSON library prints for the same document (sorted keys,
// escaped strings, plain integers), for runs with faults, errors and several
// pools.
#include "app/report/trace_json.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "scenario/loader.h"

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

// The version rows of the timeline (issue 48) add nothing to the trace: a
// Node's kubeletVersion is no instant, a pool's version and upToDateReplicas
// no counter.
TEST(TraceJson, VersionRowsLeaveTheTraceAsItWas) {
  RunOutput out;
  out.summary.add_pools()->set_name("p");
  out.summary.set_end_time_s(10);
  out.recorder.Change(1 * kSecond, "Node", "n-1", "registered", "false", "true", "p");
  const std::string before = TraceJson(out);
  out.recorder.Change(1 * kSecond, "Node", "n-1", "kubeletVersion", "", "v1.30.0", "p");
  out.recorder.Change(1 * kSecond, "Node", "n-2", "kubeletVersion", "", "v1.30.0", "p");
  out.recorder.Change(2 * kSecond, "MachinePool", "p", "spec.version", "", "v1.31.0", "p");
  out.recorder.Change(2 * kSecond, "MachinePool", "p", "upToDateReplicas", "0", "1", "p");
  EXPECT_EQ(TraceJson(out), before);
}

// An instance's track holds one span per state; a span still open when the
// run ends lasts to the end. Such spans come in pool order, then track order,
// although tracks are numbered across pools in order of first appearance.
TEST(TraceJson, SpansStillOpenRunToTheEndInPoolThenTrackOrder) {
  RunOutput out;
  out.summary.add_pools()->set_name("a");
  out.summary.add_pools()->set_name("b");
  out.summary.set_end_time_s(10);
  out.recorder.Change(1 * kSecond, "Instance", "a-1", "state", "", "Pending", "a");
  out.recorder.Change(2 * kSecond, "Instance", "b-1", "state", "", "Pending", "b");
  out.recorder.Change(3 * kSecond, "Instance", "a-2", "state", "", "Pending", "a");
  out.recorder.Change(4 * kSecond, "Instance", "a-1", "state", "Pending", "Running", "a");
  out.recorder.Change(5 * kSecond, "Instance", "a-1", "state", "Running", "Terminated", "a");
  const nlohmann::json doc = nlohmann::json::parse(TraceJson(out));
  std::vector<nlohmann::json> spans;
  for (const nlohmann::json& e : doc["traceEvents"]) {
    if (e["ph"] == "X") spans.push_back(e);
  }
  ASSERT_EQ(spans.size(), 4u) << doc.dump();
  // Closed as the rows come: a-1's Pending, then its Running (Terminated
  // opens nothing).
  EXPECT_EQ(spans[0]["name"], "Pending");
  EXPECT_EQ(spans[0]["tid"], 1);
  EXPECT_EQ(spans[0]["dur"], 3 * kSecond);
  EXPECT_EQ(spans[1]["name"], "Running");
  EXPECT_EQ(spans[1]["tid"], 1);
  EXPECT_EQ(spans[1]["dur"], 1 * kSecond);
  // Open at the end: pool a's a-2 (pid 1, tid 3) before pool b's b-1 (pid 2,
  // tid 2), each lasting to the end of the run.
  EXPECT_EQ(spans[2]["name"], "Pending");
  EXPECT_EQ(spans[2]["pid"], 1);
  EXPECT_EQ(spans[2]["tid"], 3);
  EXPECT_EQ(spans[2]["ts"], 3 * kSecond);
  EXPECT_EQ(spans[2]["dur"], 7 * kSecond);
  EXPECT_EQ(spans[3]["pid"], 2);
  EXPECT_EQ(spans[3]["tid"], 2);
  EXPECT_EQ(spans[3]["dur"], 8 * kSecond);
}

// A controller's queue is a counter track of the controllers' process: one
// sample per moment its load changed, steps logged out of time order
// sorted, and a moment whose steps cancel out shows nothing.
TEST(TraceJson, QueueLoadIsACounterPerControllerSampledWhenItChanges) {
  RunOutput out;
  out.summary.add_pools()->set_name("p");
  out.summary.set_end_time_s(10);
  const size_t log = out.recorder.AddQueueLoad("machinepool");
  out.recorder.QueueLoadStepped(log, 0, +1, 0);
  out.recorder.QueueLoadStepped(log, 5 * kSecond, +1, 0);  // a delayed key, due at 5 s
  out.recorder.QueueLoadStepped(log, 0, -1, +1);
  out.recorder.QueueLoadStepped(log, 3 * kSecond, +1, 0);  // added at 3 s ...
  out.recorder.QueueLoadStepped(log, 3 * kSecond, -1, 0);  // ... and taken at once
  out.recorder.QueueLoadStepped(log, 7 * kSecond, -1, 0);
  const nlohmann::json doc = nlohmann::json::parse(TraceJson(out));
  std::vector<nlohmann::json> samples;
  for (const nlohmann::json& e : doc["traceEvents"]) {
    if (e["ph"] == "C" && e["name"] == "machinepool queue") samples.push_back(e);
  }
  ASSERT_EQ(samples.size(), 3u) << doc.dump();
  EXPECT_EQ(samples[0]["pid"], 2);  // the process after the pools'
  EXPECT_EQ(samples[0]["ts"], 0);
  EXPECT_EQ(samples[0]["args"], (nlohmann::json{{"busy", 1}, {"depth", 0}}));
  EXPECT_EQ(samples[1]["ts"], 5 * kSecond);
  EXPECT_EQ(samples[1]["args"], (nlohmann::json{{"busy", 1}, {"depth", 1}}));
  EXPECT_EQ(samples[2]["ts"], 7 * kSecond);
  EXPECT_EQ(samples[2]["args"], (nlohmann::json{{"busy", 1}, {"depth", 0}}));
}

}  // namespace
}  // namespace mpsim
