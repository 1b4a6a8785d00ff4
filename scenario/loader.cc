#include "scenario/loader.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

#include "scenario/defaults.h"
#include "scenario/overrides.h"
#include "scenario/validate.h"
#include "sim/scenario_text.h"
#include "sim/yaml_to_proto.h"

namespace mpsim {
namespace {

using scenario::AppliedOverride;
using scenario::Issue;

constexpr uintmax_t kMaxFileBytes = 16 << 20;

// Where each key and list item of the file's own text is, by YAML path.
using Locations = std::map<std::string, scenario::TextPosition>;

void Record(const YAML::Node& node, const std::string& path, Locations* out) {
  if (node.IsMap()) {
    for (auto it = node.begin(); it != node.end(); ++it) {
      if (!it->first.IsScalar()) continue;
      const std::string key = scenario::JoinKey(path, it->first.Scalar());
      (*out)[key] = scenario::PositionOf(it->first.Mark());
      Record(it->second, key, out);
    }
  } else if (node.IsSequence()) {
    size_t index = 0;
    for (auto it = node.begin(); it != node.end(); ++it, ++index) {
      const std::string item = scenario::JoinIndex(path, index);
      (*out)[item] = scenario::PositionOf(it->Mark());
      Record(*it, item, out);
    }
  }
}

// Gives an issue its file position: the override it came from, or the nearest
// key of the file at or above its path.
ScenarioError Locate(const Issue& issue, const std::string& file, const Locations& locations,
                     const std::vector<AppliedOverride>& applied) {
  ScenarioError e{file, 0, 0, issue.path, issue.message};
  if (!issue.origin.empty()) {
    e.file = issue.origin;
    return e;
  }
  for (auto it = applied.rbegin(); it != applied.rend(); ++it) {
    if (!scenario::IsUnderPath(issue.path, it->path)) continue;
    e.file = it->origin;
    return e;
  }
  for (std::string p = issue.path;; p = scenario::ParentPath(p)) {
    auto found = locations.find(p);
    if (found != locations.end() && found->second.line > 0) {
      e.line = found->second.line;
      e.column = found->second.column;
      break;
    }
    if (p.empty()) break;
  }
  return e;
}

// Appends `issues` to *out with their positions, in file order.
void LocateAll(const std::vector<Issue>& issues, const std::string& file,
               const Locations& locations, const std::vector<AppliedOverride>& applied,
               std::vector<ScenarioError>* out) {
  std::vector<ScenarioError> found;
  for (const Issue& issue : issues) found.push_back(Locate(issue, file, locations, applied));
  std::stable_sort(found.begin(), found.end(), [](const ScenarioError& a, const ScenarioError& b) {
    return std::tie(a.line, a.column) < std::tie(b.line, b.column);
  });
  out->insert(out->end(), found.begin(), found.end());
}

void LoadText(const std::string& text, const std::string& file,
              const std::vector<std::string>& overrides, proto::Scenario* out,
              std::vector<ScenarioError>* errors, std::vector<ScenarioError>* warnings) {
  YAML::Node root;
  if (!scenario::ParseScenarioText(text, file, &root, errors)) return;
  Locations locations;
  locations[""] = scenario::PositionOf(root.Mark());
  Record(root, "", &locations);

  std::vector<Issue> issues;
  std::vector<AppliedOverride> applied;
  scenario::ApplyOverrides(root, overrides, &applied, &issues);
  scenario::ApplyDefaults(root);
  scenario::YamlToMessage(root, "", out, &issues);
  // Semantic rules read typed values; after a type error they would only add noise.
  if (issues.empty()) scenario::ValidateScenario(*out, &issues);

  LocateAll(issues, file, locations, applied, errors);
  if (!issues.empty() || warnings == nullptr) return;
  std::vector<Issue> warned;
  scenario::WarnScenario(*out, &warned);
  LocateAll(warned, file, locations, applied, warnings);
}

bool ReadFile(const std::string& path, std::string* text, std::string* error) {
  std::error_code ec;
  const std::filesystem::file_status st = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(st)) {
    *error = "cannot open the scenario: " + (ec ? ec.message() : "no such file");
  } else if (std::filesystem::is_directory(st)) {
    *error = "is a directory; expected a scenario file";
  } else if (!std::filesystem::is_regular_file(st)) {
    *error = "is not a regular file; expected a scenario file";
  } else if (std::filesystem::file_size(path, ec) > kMaxFileBytes || ec) {
    *error = ec ? "cannot read the scenario: " + ec.message()
                : "is larger than 16 MiB; a scenario is a short text file";
  }
  if (!error->empty()) return false;
  std::ifstream in(path, std::ios::binary);
  if (in) text->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (!in || in.bad()) *error = std::string("cannot read the scenario: ") + std::strerror(errno);
  return error->empty();
}

}  // namespace

std::string ScenarioError::String() const {
  std::string s = file;
  if (line > 0) s += ":" + std::to_string(line) + ":" + std::to_string(column);
  s += ": ";
  if (!key.empty()) s += key + ": ";
  return s + message;
}

bool LoadScenario(const std::string& path, const std::vector<std::string>& overrides,
                  proto::Scenario* out, std::vector<ScenarioError>* errors,
                  std::vector<ScenarioError>* warnings) {
  std::string text;
  std::string error;
  try {
    if (ReadFile(path, &text, &error)) {
      return LoadScenarioFromString(text, path, overrides, out, errors, warnings);
    }
  } catch (const std::exception& e) {
    error = std::string("cannot read the scenario: ") + e.what();
  }
  errors->push_back({path, 0, 0, "", error});
  return false;
}

bool LoadScenarioFromString(const std::string& yaml_text, const std::string& file_name,
                            const std::vector<std::string>& overrides, proto::Scenario* out,
                            std::vector<ScenarioError>* errors,
                            std::vector<ScenarioError>* warnings) {
  const size_t before = errors->size();
  out->Clear();
  try {
    LoadText(yaml_text, file_name, overrides, out, errors, warnings);
  } catch (const std::exception& e) {
    // A bug of ours, not the user's: say so rather than blame the file.
    errors->push_back({file_name, 0, 0, "", std::string("internal error in mpsim: ") + e.what()});
  }
  return errors->size() == before;
}

}  // namespace mpsim
