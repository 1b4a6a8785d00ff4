#include "app/check/golden.h"

#include <fstream>
#include <sstream>
#include <vector>

namespace mpsim {
namespace {

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// "line N: - golden / + run" for the first few lines that differ.
std::string FirstDifferences(const std::vector<std::string>& golden,
                             const std::vector<std::string>& run) {
  constexpr int kShown = 3;
  std::ostringstream msg;
  int shown = 0;
  const size_t n = std::max(golden.size(), run.size());
  for (size_t i = 0; i < n && shown < kShown; ++i) {
    const std::string* g = i < golden.size() ? &golden[i] : nullptr;
    const std::string* r = i < run.size() ? &run[i] : nullptr;
    if (g && r && *g == *r) continue;
    msg << (shown ? "; " : "") << "line " << (i + 1) << ": - " << (g ? *g : "(end)") << " + "
        << (r ? *r : "(end)");
    ++shown;
  }
  return msg.str();
}

}  // namespace

std::string GoldenPath(const std::string& scenario) {
  for (const char* ext : {".yaml", ".yml"}) {
    const std::string e = ext;
    if (scenario.size() > e.size() &&
        scenario.compare(scenario.size() - e.size(), e.size(), e) == 0) {
      return scenario.substr(0, scenario.size() - e.size()) + ".golden.csv";
    }
  }
  return scenario + ".golden.csv";
}

ExpectationResult CompareGolden(const std::string& golden_path, const std::string& timeline) {
  ExpectationResult r;
  r.name = "timeline matches " + golden_path;
  std::ifstream in(golden_path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string golden = ss.str();
  r.passed = golden == timeline;
  if (r.passed) {
    r.message = "identical";
    return r;
  }
  const std::vector<std::string> g = Lines(golden), t = Lines(timeline);
  r.message = "the timeline changed (" + std::to_string(g.size()) + " golden lines, " +
              std::to_string(t.size()) + " now): " + FirstDifferences(g, t) +
              "; if the change is intended, rerun with --update-golden";
  return r;
}

}  // namespace mpsim
