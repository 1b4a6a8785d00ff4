// report.html end to end with the real binary: `mpsim run --report`, then
// `mpsim report DIR` writing the same page, and bad directories exiting 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/testing/html_tags.h"
#include "tests/testing/run_mpsim.h"

namespace mpsim {
namespace {

namespace fs = std::filesystem;
using testing::Mpsim;
using testing::Ran;
using testing::ScratchPath;
using testing::Slurp;
using testing::Src;

std::string ShellQuotedPath(const fs::path& p) { return "'" + p.string() + "'"; }

TEST(CliE2EHtmlReport, RunWritesItAndReportRewritesTheSamePage) {
  const fs::path out = ScratchPath("html_report_run");
  Ran r = Mpsim("run " + ShellQuotedPath(Src("scenarios/demo.yaml")) + " --report --out " +
                ShellQuotedPath(out));
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("report.html"), std::string::npos) << r.out;
  const std::string html = Slurp(out / "report.html");
  EXPECT_EQ(testing::UnbalancedTags(html), "");
  EXPECT_TRUE(testing::ExternalReferences(html).empty());
  EXPECT_NE(html.find("<section id=\"pool-mp-0\">"), std::string::npos);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_NE(html.find("why pool mp-0 took"), std::string::npos);
  EXPECT_NE(html.find("<a href=\"trace.json\">"), std::string::npos);

  fs::remove(out / "report.html");
  r = Mpsim("report " + ShellQuotedPath(out));
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(Slurp(out / "report.html"), html);
}

TEST(CliE2EHtmlReport, DirectoryWithoutSummaryExits2) {
  Ran r = Mpsim("report /nonexistent", /*with_stderr=*/true);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("/nonexistent/summary.json"), std::string::npos) << r.out;
  const fs::path empty = ScratchPath("html_report_empty");
  fs::create_directories(empty);
  r = Mpsim("report " + ShellQuotedPath(empty), /*with_stderr=*/true);
  EXPECT_EQ(r.status, 2);
  EXPECT_FALSE(fs::exists(empty / "report.html"));
  r = Mpsim("report", /*with_stderr=*/true);
  EXPECT_EQ(r.status, 2);
}

}  // namespace
}  // namespace mpsim
