// The subcommands of the mpsim CLI as functions returning the exit status:
// 0 success, 1 a run finished but an expectation failed, 2 bad input,
// 130 a sweep interrupted (resumable).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace mpsim {
namespace proto {
class Scenario;
}
struct ScenarioEdits;  // scenario/loader.h

inline constexpr int kExitOk = 0;
inline constexpr int kExitExpectationFailed = 1;
inline constexpr int kExitBadInput = 2;
// A sweep stopped by SIGINT or SIGTERM after writing its finished runs (128 + SIGINT,
// as shells report Ctrl-C); the same command resumes it.
inline constexpr int kExitInterrupted = 130;

struct RunArgs {
  std::string scenario;
  std::optional<uint64_t> seed;
  std::vector<std::string> overrides;
  std::string overlay;  // --overlay FILE; empty: none
  std::string out_dir;  // empty: results/<scenario-name>
  bool plot = false;
  bool report = false;  // also write report.html
  std::string explain_pool;
  bool json = false;
  bool quiet = false;
};
int RunCommand(const RunArgs& args);

int ValidateCommand(const std::vector<std::string>& scenarios);

struct CheckArgs {
  std::vector<std::string> paths;  // files or directories (searched recursively)
  std::string junit;
  uint64_t seeds = 1;
  std::vector<std::string> overrides;  // --set PATH=VALUE, applied to every scenario
  std::string overlay;                 // --overlay FILE, merged into every scenario first
  bool update_golden = false;          // rewrite X.golden.csv beside each X.yaml
};
int CheckCommand(const CheckArgs& args);

// `mpsim report DIR`: writes DIR/report.html from the run's outputs there;
// kExitBadInput after one message when DIR holds no readable summary.json.
int ReportCommand(const std::string& dir);

// `mpsim schema`: prints the JSON Schema of scenario files (scenario/json_schema.h).
int SchemaCommand();

// Loads a scenario, printing every error to `err` (stderr by default); false
// if there was any.
bool LoadOrReport(const std::string& path, const ScenarioEdits& edits, proto::Scenario* sc,
                  std::ostream* err = nullptr);

}  // namespace mpsim
