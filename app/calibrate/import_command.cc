#include "app/calibrate/import_command.h"

#include <filesystem>
#include <iostream>

#include "app/calibrate/calibration.h"
#include "app/calibrate/imported_scenario.h"
#include "app/calibrate/read_dumps.h"
#include "app/commands.h"
#include "app/report/atomic_file.h"
#include "scenario/loader.h"

namespace mpsim {
namespace {

bool NameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
}

std::string ImportDescription(const std::vector<std::string>& files) {
  std::string out = "Imported by mpsim import from";
  for (const std::string& f : files) out += " " + std::filesystem::path(f).filename().string();
  return out;
}

// The loader's verdict on the text about to be written, so that an import
// never leaves a scenario that `mpsim validate` refuses.
bool ImportLoads(const std::string& yaml, const std::string& path) {
  proto::Scenario sc;
  std::vector<ScenarioError> errors;
  if (LoadScenarioFromString(yaml, path, {}, &sc, &errors)) return true;
  std::cerr << "error: import: the scenario made from these dumps does not load:\n";
  for (const ScenarioError& e : errors) std::cerr << "  " << e.String() << "\n";
  return false;
}

}  // namespace

std::string ImportedScenarioName(const std::string& path) {
  std::string name;
  for (char c : std::filesystem::path(path).stem().string()) {
    const char lower = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    name += NameChar(lower) ? lower : '-';
  }
  while (!name.empty() &&
         !((name[0] >= 'a' && name[0] <= 'z') || (name[0] >= '0' && name[0] <= '9')))
    name.erase(0, 1);
  return name.empty() ? "imported" : name.substr(0, 253);
}

int ImportCommand(const ImportArgs& args) {
  calibrate::Dumps dumps;
  std::string error, yaml;
  if (!calibrate::ReadDumps(args.files, &dumps, &error)) {
    std::cerr << "error: import: " << error << "\n";
    return kExitBadInput;
  }
  if (dumps.pools.empty()) {
    std::cerr << "error: import: no MachinePool among the files; add the output of "
                 "`kubectl get machinepools.cluster.x-k8s.io -A -o json`\n";
    return kExitBadInput;
  }
  const calibrate::Calibration cal = calibrate::Calibrate(dumps);
  const calibrate::ImportNames names{ImportedScenarioName(args.out), ImportDescription(args.files)};
  if (!calibrate::ImportedScenario(dumps, cal, names, &yaml, &error)) {
    std::cerr << "error: import: " << error << "\n";
    return kExitBadInput;
  }
  if (!ImportLoads(yaml, args.out)) return kExitBadInput;
  if (!WriteFileAtomic(args.out, yaml, &error)) {
    std::cerr << "error: import: " << error << "\n";
    return kExitBadInput;
  }
  std::cout << "scenario " << names.scenario << " with " << dumps.pools.size()
            << " pools written to " << args.out << "\n";
  return kExitOk;
}

}  // namespace mpsim
