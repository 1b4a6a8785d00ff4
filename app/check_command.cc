// `mpsim check`: runs scenarios with expectations, prints one line per
// expectation, writes JUnit XML, and names the replay command on failure.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "app/atomic_file.h"
#include "app/commands.h"
#include "app/expectations.h"
#include "app/version.h"
#include "app/world.h"

namespace mpsim {

namespace {

struct CaseResult {
  std::string file;
  std::string name;
  bool passed;
  std::string message;
};

// Files named directly, plus every *.yaml/*.yml below named directories, sorted.
bool CollectFiles(const std::vector<std::string>& paths, std::vector<std::string>* files) {
  namespace fs = std::filesystem;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::vector<std::string> found;
      for (const auto& e : fs::recursive_directory_iterator(p, ec)) {
        auto ext = e.path().extension();
        if (e.is_regular_file() && (ext == ".yaml" || ext == ".yml")) found.push_back(e.path());
      }
      std::sort(found.begin(), found.end());
      files->insert(files->end(), found.begin(), found.end());
    } else if (fs::exists(p, ec)) {
      files->push_back(p);
    } else {
      std::cerr << "error: " << p << ": no such file or directory\n";
      return false;
    }
  }
  return true;
}

std::string XmlEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string JUnit(const std::vector<CaseResult>& cases) {
  std::ostringstream x;
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"mpsim check\">\n";
  size_t i = 0;
  while (i < cases.size()) {
    size_t j = i;
    int failures = 0;
    while (j < cases.size() && cases[j].file == cases[i].file) failures += !cases[j++].passed;
    x << "  <testsuite name=\"" << XmlEscape(cases[i].file) << "\" tests=\"" << (j - i)
      << "\" failures=\"" << failures << "\">\n";
    for (; i < j; ++i) {
      x << "    <testcase classname=\"" << XmlEscape(cases[i].file) << "\" name=\""
        << XmlEscape(cases[i].name) << "\"";
      if (cases[i].passed) {
        x << "/>\n";
      } else {
        x << ">\n      <failure message=\"" << XmlEscape(cases[i].message)
          << "\"/>\n    </testcase>\n";
      }
    }
    x << "  </testsuite>\n";
  }
  x << "</testsuites>\n";
  return x.str();
}

// Runs one file over the seeds; appends one case per expectation and seed.
int CheckFile(const std::string& file, uint64_t seeds, std::vector<CaseResult>* cases) {
  proto::Scenario sc;
  if (!LoadOrReport(file, {}, &sc)) {
    cases->push_back({file, "load", false, "scenario does not load"});
    return kExitBadInput;
  }
  int status = kExitOk;
  for (uint64_t k = 0; k < seeds; ++k) {
    const uint64_t seed = sc.spec().seed() + k;
    RunOutput out;
    std::string error;
    if (!RunScenario(sc, seed, &out, &error)) {
      std::cerr << "error: " << file << ": " << error << "\n";
      cases->push_back({file, "run", false, error});
      return kExitBadInput;
    }
    for (const ExpectationResult& r : CheckExpectations(sc, out)) {
      std::string name = r.name + (seeds > 1 ? " [seed " + std::to_string(seed) + "]" : "");
      std::string msg = r.message;
      if (!r.passed) {
        msg += "; replay: mpsim run " + file + " --seed " + std::to_string(seed) + " (mpsim " +
               VersionString() + ")";
        status = std::max(status, kExitExpectationFailed);
      }
      std::cout << (r.passed ? "PASS " : "FAIL ") << file << ": " << name << ": " << msg << "\n";
      cases->push_back({file, name, r.passed, msg});
    }
  }
  return status;
}

}  // namespace

int CheckCommand(const CheckArgs& args) {
  std::vector<std::string> files;
  if (!CollectFiles(args.paths, &files)) return kExitBadInput;
  std::vector<CaseResult> cases;
  int status = kExitOk;
  for (const std::string& f : files) status = std::max(status, CheckFile(f, args.seeds, &cases));
  int failed = 0;
  for (const CaseResult& c : cases) failed += !c.passed;
  std::cout << "mpsim check: " << (cases.size() - failed) << " expectation(s) passed, " << failed
            << " failed\n";
  std::string error;
  if (!args.junit.empty() && !WriteFileAtomic(args.junit, JUnit(cases), &error)) {
    std::cerr << "error: " << error << "\n";
    return kExitBadInput;
  }
  return status;
}

}  // namespace mpsim
