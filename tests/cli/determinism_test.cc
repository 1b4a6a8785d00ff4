// Determinism under stress: every scenario in scenarios/ that this build can
// run gives byte-identical outputs when run twice with the same seed, for two
// seeds (DESIGN.md "Determinism rules").
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/testing/run_mpsim.h"

namespace mpsim {
namespace {

namespace fs = std::filesystem;
using testing::Mpsim;
using testing::Ran;
using testing::Slurp;
using testing::Src;

// Runs `scenario` with `seed` into `out`; false (and no outputs) when this
// build has no model for one of its providers.
bool RunInto(const fs::path& scenario, int seed, const fs::path& out, std::string* log) {
  fs::remove_all(out);
  Ran r = Mpsim("run '" + scenario.string() + "' --quiet --seed " + std::to_string(seed) +
                    " --out '" + out.string() + "'",
                /*with_stderr=*/true);
  if (r.out.find("has no model in this build") != std::string::npos) return false;
  // 1 is a run whose expectations failed: still a run, still deterministic.
  EXPECT_TRUE(r.status == 0 || r.status == 1) << scenario << "\n" << r.out;
  *log = r.out;
  return true;
}

// The library's scenario files, listed when the test binary starts: one test
// each, so that ctest spreads them over the cores.
std::vector<std::string> LibraryScenarios() {
  std::vector<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(Src("scenarios"))) {
    if (entry.path().extension() == ".yaml") {
      files.push_back(fs::relative(entry.path(), Src("")).string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

class CliE2EDeterminism : public ::testing::TestWithParam<std::string> {};

TEST_P(CliE2EDeterminism, TwiceWithTwoSeeds) {
  const fs::path scenario = Src(GetParam());
  if (Mpsim("validate '" + scenario.string() + "'").status != 0) {
    GTEST_SKIP() << "not valid in this build";
  }
  std::string tag = GetParam();
  std::replace(tag.begin(), tag.end(), '/', '_');
  const fs::path tmp = testing::ScratchPath("determinism_" + tag);
  for (int seed : {1, 2}) {
    std::string log_a, log_b;
    const fs::path a = tmp / "a", b = tmp / "b";
    if (!RunInto(scenario, seed, a, &log_a)) GTEST_SKIP() << "a provider has no model here";
    ASSERT_TRUE(RunInto(scenario, seed, b, &log_b));
    EXPECT_EQ(log_a, log_b);
    for (const char* name : {"summary.json", "timeline.csv", "trace.json"}) {
      ASSERT_TRUE(fs::exists(a / name)) << name;
      EXPECT_TRUE(Slurp(a / name) == Slurp(b / name))
          << "seed " << seed << ": " << name << " differs between two runs";
    }
  }
  fs::remove_all(tmp);
}

INSTANTIATE_TEST_SUITE_P(Library, CliE2EDeterminism, ::testing::ValuesIn(LibraryScenarios()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param.substr(info.param.find('/') + 1);
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

TEST(CliE2EDeterminismLibrary, HasScenarios) { EXPECT_GE(LibraryScenarios().size(), 100u); }

TEST(CliE2EDeterminismLarge, ALargePoolTwice) {
  const fs::path tmp = testing::ScratchPath("determinism_large");
  std::string outputs[2];
  for (int i = 0; i < 2; ++i) {
    const fs::path out = tmp / std::to_string(i);
    fs::remove_all(out);
    Ran r =
        Mpsim("run " + Src("scenarios/demo.yaml") +
              " --quiet --seed 1 --set spec.events[0].scale.replicas=1000 --out " + out.string());
    ASSERT_TRUE(r.status == 0 || r.status == 1);
    for (const char* name : {"summary.json", "timeline.csv", "trace.json"}) {
      outputs[i] += Slurp(out / name);
    }
  }
  EXPECT_GT(outputs[0].size(), 100'000u);
  EXPECT_TRUE(outputs[0] == outputs[1]);
  fs::remove_all(tmp);
}

}  // namespace
}  // namespace mpsim
