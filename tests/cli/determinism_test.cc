// Determinism under stress: every scenario in scenarios/ that this build can
// run gives byte-identical outputs when run twice with the same seed, for two
// seeds (DESIGN.md "Determinism rules").
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

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

TEST(CliE2EDeterminism, EveryScenarioTwiceWithTwoSeeds) {
  const fs::path tmp = testing::ScratchPath("determinism");
  int ran = 0;
  for (const auto& entry : fs::recursive_directory_iterator(Src("scenarios"))) {
    if (entry.path().extension() != ".yaml") continue;
    for (int seed : {1, 2}) {
      std::string log_a, log_b;
      const fs::path a = tmp / "a", b = tmp / "b";
      if (!RunInto(entry.path(), seed, a, &log_a)) break;
      ASSERT_TRUE(RunInto(entry.path(), seed, b, &log_b));
      EXPECT_EQ(log_a, log_b) << entry.path();
      for (const char* name : {"summary.json", "timeline.csv", "trace.json"}) {
        ASSERT_TRUE(fs::exists(a / name)) << entry.path() << " " << name;
        EXPECT_TRUE(Slurp(a / name) == Slurp(b / name))
            << entry.path() << " seed " << seed << ": " << name << " differs between two runs";
      }
      ++ran;
    }
  }
  EXPECT_GE(ran, 2) << "no scenario in scenarios/ could run";
  fs::remove_all(tmp);
}

TEST(CliE2EDeterminism, ALargePoolTwice) {
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
