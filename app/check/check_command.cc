// `mpsim check`: runs scenarios with expectations, prints one line per
// expectation, writes JUnit XML, and names the replay command on failure.
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <thread>

#include "app/check/expectations.h"
#include "app/check/golden.h"
#include "app/commands.h"
#include "app/report/atomic_file.h"
#include "app/report/outputs.h"
#include "app/version.h"
#include "app/world.h"
#include "scenario/loader.h"

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
    // The attributes the Ant/Jenkins JUnit schema requires, which GitHub,
    // GitLab and Prow all read.
    x << "  <testsuite name=\"" << XmlEscape(cases[i].file) << "\" tests=\"" << (j - i)
      << "\" failures=\"" << failures << "\" errors=\"0\" skipped=\"0\" time=\"0\">\n";
    for (; i < j; ++i) {
      x << "    <testcase classname=\"" << XmlEscape(cases[i].file) << "\" name=\""
        << XmlEscape(cases[i].name) << "\" time=\"0\"";
      if (cases[i].passed) {
        x << "/>\n";
      } else {
        x << ">\n      <failure message=\"" << XmlEscape(cases[i].message)
          << "\" type=\"expectation\">" << XmlEscape(cases[i].message)
          << "</failure>\n    </testcase>\n";
      }
    }
    x << "  </testsuite>\n";
  }
  x << "</testsuites>\n";
  return x.str();
}

// What checking one file produced; files are checked in parallel and
// reported in file order, so the output does not depend on scheduling.
struct FileResult {
  int status = kExitOk;
  std::vector<CaseResult> cases;
  std::string out;  // the PASS/FAIL lines
  std::string err;  // load and run errors
};

// Runs one file over the seeds; one case per expectation and seed.
// The command that replays one run, --overlay and --set flags included.
std::string Replay(const std::string& file, uint64_t seed, const ScenarioEdits& edits) {
  std::string cmd = "mpsim run " + file + " --seed " + std::to_string(seed);
  if (!edits.overlay.empty()) cmd += " --overlay '" + edits.overlay + "'";
  for (const std::string& s : edits.overrides) cmd += " --set '" + s + "'";
  return cmd + " (mpsim " + VersionString() + ")";
}

// The golden-timeline case of a file's first seed: compared if X.golden.csv
// exists, written instead with --update-golden.
void CheckGolden(const std::string& file, const RunOutput& run, bool update,
                 std::vector<ExpectationResult>* results, std::ostream* out) {
  const std::string path = GoldenPath(file);
  const std::string timeline = TimelineCsv(run.recorder);
  std::string error;
  if (update) {
    if (WriteFileAtomic(path, timeline, &error)) {
      *out << "UPDATED " << path << "\n";
    } else {
      results->push_back({"write " + path, false, error});
    }
    return;
  }
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) results->push_back(CompareGolden(path, timeline));
}

FileResult CheckFile(const std::string& file, uint64_t seeds, const ScenarioEdits& edits,
                     bool update_golden) {
  FileResult res;
  std::vector<CaseResult>* cases = &res.cases;
  std::ostringstream out, err;
  proto::Scenario sc;
  if (!LoadOrReport(file, edits, &sc, &err)) {
    cases->push_back({file, "load", false, "scenario does not load: " + err.str()});
    res.err = err.str();
    res.status = kExitBadInput;
    return res;
  }
  if (sc.spec().expect_size() == 0) {
    out << "SKIP " << file << ": no expectations\n";
  }
  int& status = res.status;
  for (uint64_t k = 0; k < seeds; ++k) {
    const uint64_t seed = sc.spec().seed() + k;
    RunOutput run;
    std::string error;
    if (!RunScenario(sc, seed, &run, &error)) {
      res.err = "error: " + file + ": " + error + "\n";
      cases->push_back({file, "run", false, error});
      res.status = kExitBadInput;
      return res;
    }
    std::vector<ExpectationResult> results = CheckExpectations(sc, run);
    // A golden timeline is the file's own; an edited scenario has another.
    const bool edited = !edits.overrides.empty() || !edits.overlay.empty();
    if (k == 0 && !edited) CheckGolden(file, run, update_golden, &results, &out);
    for (const ExpectationResult& r : results) {
      std::string name = r.name + (seeds > 1 ? " [seed " + std::to_string(seed) + "]" : "");
      std::string msg = r.message;
      if (!r.passed) {
        msg += "; replay: " + Replay(file, seed, edits);
        status = std::max(status, kExitExpectationFailed);
      }
      out << (r.passed ? "PASS " : "FAIL ") << file << ": " << name << ": " << msg << "\n";
      cases->push_back({file, name, r.passed, msg});
    }
  }
  int failed = 0;
  for (const CaseResult& c : res.cases) failed += !c.passed;
  if (failed > 0) {
    out << "FAIL " << file << " (" << failed << " of " << res.cases.size() << " failed)\n";
  } else if (!res.cases.empty()) {
    out << "ok   " << file << " (" << res.cases.size() << " passed)\n";
  }
  res.out = out.str();
  return res;
}

// Checks every file on a few threads; results stay in file order.
std::vector<FileResult> CheckAll(const std::vector<std::string>& files, const CheckArgs& args) {
  std::vector<FileResult> results(files.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < files.size(); i = next++)
      results[i] =
          CheckFile(files[i], args.seeds, {args.overrides, args.overlay}, args.update_golden);
  };
  const size_t n = std::clamp<size_t>(std::thread::hardware_concurrency(), 1, files.size());
  std::vector<std::thread> threads;
  for (size_t t = 1; t < n; ++t) threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads) t.join();
  return results;
}

}  // namespace

int CheckCommand(const CheckArgs& args) {
  std::vector<std::string> files;
  if (!CollectFiles(args.paths, &files)) return kExitBadInput;
  if (files.empty()) {
    std::cerr << "error: no scenario files (*.yaml, *.yml) found\n";
    return kExitBadInput;
  }
  std::vector<CaseResult> cases;
  int status = kExitOk;
  for (FileResult& r : CheckAll(files, args)) {
    std::cout << r.out;
    std::cerr << r.err;
    status = std::max(status, r.status);
    cases.insert(cases.end(), r.cases.begin(), r.cases.end());
  }
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
