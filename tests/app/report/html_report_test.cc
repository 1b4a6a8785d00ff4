// report.html from a summary and timeline rows: well-formed, one section per
// pool with its charts, nothing fetched, every text escaped.
#include "app/report/html_report.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "app/report/html_escape.h"
#include "app/report/outputs.h"
#include "tests/testing/html_tags.h"

namespace mpsim {
namespace {

using testing::ExternalReferences;
using testing::UnbalancedTags;

proto::RunSummary HtmlTwoPools() {
  proto::RunSummary s;
  s.set_scenario("a<b>&c \"quoted\"");
  s.set_seed(7);
  s.set_end_time_s(100);
  for (const char* name : {"mp-0", "mp-1"}) {
    proto::PoolSummary* p = s.add_pools();
    p->set_name(name);
    p->set_provider("asg");
    p->set_final_phase("Running");
    p->set_desired_replicas(2);
    p->set_time_to_converge_s(30);
    const std::vector<std::pair<std::string, double>> phases = {{"Provisioning", 0.0},
                                                                {"Running", 30.0}};
    for (const auto& [phase, t] : phases) {
      proto::PhaseTransition* tr = p->add_phase_transitions();
      tr->set_phase(phase);
      tr->set_time_s(t);
    }
  }
  proto::ControllerErrors* e = s.mutable_pools(1)->add_last_errors();
  e->set_controller("awsmachinepool");
  e->set_message("<script>alert(1)</script> & more");
  e->set_count(3);
  (*s.mutable_pools(1)->mutable_faults_by_kind())["capacity"] = 2;
  return s;
}

std::vector<CsvTimelineRow> HtmlRows() {
  return {{0, "MachinePool", "mp-0", "spec.replicas", "", "2"},
          {10, "InfraMachinePool", "mp-0", "providerIDList", "", "aws:///i-1"},
          {12, "Node", "n-1", "providerID", "", "aws:///i-1"},
          {15, "MachinePool", "mp-0", "nodeRef", "", "n-1"},
          {20, "MachinePool", "mp-0", "readyReplicas", "0", "2"}};
}

TEST(HtmlEscape, ReplacesMarkupCharacters) {
  EXPECT_EQ(HtmlEscape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
  EXPECT_EQ(HtmlEscape("plain"), "plain");
}

TEST(HtmlReport, WellFormedWithEveryPoolAndItsCharts) {
  const std::string html = HtmlReport(HtmlTwoPools(), HtmlRows(), true);
  EXPECT_EQ(UnbalancedTags(html), "");
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("<section id=\"pool-mp-0\">"), std::string::npos);
  EXPECT_NE(html.find("<section id=\"pool-mp-1\">"), std::string::npos);
  size_t svgs = 0;
  for (size_t i = html.find("<svg"); i != std::string::npos; i = html.find("<svg", i + 1)) ++svgs;
  // mp-0: phases, replicas, latency; mp-1 has no matched node, so no histogram.
  EXPECT_EQ(svgs, 5u);
  EXPECT_NE(html.find("why pool mp-0 took"), std::string::npos);
}

TEST(HtmlReport, FetchesNothingAndLinksTheTraceByName) {
  const std::string html = HtmlReport(HtmlTwoPools(), HtmlRows(), true);
  EXPECT_TRUE(ExternalReferences(html).empty());
  EXPECT_NE(html.find("<a href=\"trace.json\">"), std::string::npos);
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), html.find("https://ui.perfetto.dev"));
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("url("), std::string::npos);
  EXPECT_EQ(html.find("@import"), std::string::npos);
  const std::string no_trace = HtmlReport(HtmlTwoPools(), HtmlRows(), false);
  EXPECT_EQ(no_trace.find("href="), std::string::npos);
}

TEST(HtmlReport, EscapesScenarioNameAndErrorMessages) {
  const std::string html = HtmlReport(HtmlTwoPools(), HtmlRows(), true);
  EXPECT_NE(html.find("a&lt;b&gt;&amp;c &quot;quoted&quot;"), std::string::npos);
  EXPECT_EQ(html.find("a<b>"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt; &amp; more"), std::string::npos);
  EXPECT_NE(html.find("<td>capacity</td><td>2</td>"), std::string::npos);
}

// With pod waits each pool's explanation ends with its pods' sentence
// (PrintPodWaits), escaped as the rest.
TEST(HtmlReport, ShowsEachPoolsPodWaits) {
  proto::PodWaits pods;
  proto::PoolPodWait* w = pods.add_pools();
  w->set_pool("mp-0");
  w->set_pod("pod-3");
  w->set_wait_s(15);
  w->set_pending_since_s(45);
  w->set_bound_at_s(60);
  w->set_node("n<1>");
  pods.add_pools()->set_pool("mp-1");
  const std::string html = HtmlReport(HtmlTwoPools(), HtmlRows(), true, &pods);
  EXPECT_NE(html.find("slowest pod on pool mp-0: pod-3 waited 15.0s: pending from 45.0s, bound "
                      "at 60.0s to node n&lt;1&gt;, its launch not in the timeline\n"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("no pod was bound to a node of pool mp-1\n"), std::string::npos);
  EXPECT_EQ(HtmlReport(HtmlTwoPools(), HtmlRows(), true).find("slowest pod"), std::string::npos);
}

// A summary.json as mpsim run writes it (time_to_converge_s null for a pool
// that never converged) reads back; a directory without one is an error.
TEST(WriteHtmlReport, ReadsWhatRunWritesAndNamesAMissingSummary) {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::path(::testing::TempDir()) / ("mpsim_html_report_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string error;
  EXPECT_FALSE(WriteHtmlReport(dir.string(), &error));
  EXPECT_NE(error.find("summary.json"), std::string::npos) << error;
  proto::RunSummary s = HtmlTwoPools();
  s.mutable_pools(1)->clear_time_to_converge_s();
  std::ofstream(dir / "summary.json") << SummaryJson(s);
  std::ofstream(dir / "timeline.csv") << "time_s,object_kind,object,field,from,to\n";
  ASSERT_TRUE(WriteHtmlReport(dir.string(), &error)) << error;
  std::ifstream in(dir / "report.html");
  const std::string html((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(html.find("not converged"), std::string::npos);
  EXPECT_NE(html.find("no trace.json"), std::string::npos);
  std::ofstream(dir / "summary.json") << "{not json";
  EXPECT_FALSE(WriteHtmlReport(dir.string(), &error));
  EXPECT_NE(error.find("is not a summary.json"), std::string::npos) << error;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace mpsim
