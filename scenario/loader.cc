#include "scenario/loader.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <tuple>

#include "scenario/defaults.h"
#include "scenario/overlay.h"
#include "scenario/overrides.h"
#include "scenario/places.h"
#include "scenario/validate.h"
#include "sim/scenario_text.h"
#include "sim/yaml_to_proto.h"

namespace mpsim {
namespace {

using scenario::AppliedOverride;
using scenario::Issue;

constexpr uintmax_t kMaxFileBytes = 16 << 20;

// Gives an issue its file position: the override it came from, or the nearest
// key at or above its path, in the scenario or the overlay that wrote it.
ScenarioError Locate(const Issue& issue, const std::string& file, const scenario::Places& places,
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
  const scenario::Place place = scenario::NearestPlace(issue.path, places);
  if (place.position.line > 0) {
    e.file = place.file;
    e.line = place.position.line;
    e.column = place.position.column;
  }
  return e;
}

// Appends `issues` to *out with their positions: the scenario's in file order,
// then the overlay's.
void LocateAll(const std::vector<Issue>& issues, const std::string& file,
               const scenario::Places& places, const std::vector<AppliedOverride>& applied,
               std::vector<ScenarioError>* out) {
  std::vector<ScenarioError> found;
  for (const Issue& issue : issues) found.push_back(Locate(issue, file, places, applied));
  auto order = [&](const ScenarioError& e) {
    const bool in_overlay = e.line > 0 && e.file != file;
    return std::make_tuple(in_overlay, e.line, e.column);
  };
  std::stable_sort(found.begin(), found.end(), [&](const ScenarioError& a, const ScenarioError& b) {
    return order(a) < order(b);
  });
  out->insert(out->end(), found.begin(), found.end());
}

// `a_noun` is what the file should be, with its article ("a scenario").
bool ReadFile(const std::string& path, const std::string& a_noun, std::string* text,
              std::string* error) {
  const std::string the_noun = "the " + a_noun.substr(a_noun.find(' ') + 1);
  std::error_code ec;
  const std::filesystem::file_status st = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(st)) {
    *error = "cannot open " + the_noun + ": " + (ec ? ec.message() : "no such file");
  } else if (std::filesystem::is_directory(st)) {
    *error = "is a directory; expected " + a_noun + " file";
  } else if (!std::filesystem::is_regular_file(st)) {
    *error = "is not a regular file; expected " + a_noun + " file";
  } else if (std::filesystem::file_size(path, ec) > kMaxFileBytes || ec) {
    *error = ec ? "cannot read " + the_noun + ": " + ec.message()
                : "is larger than 16 MiB; " + a_noun + " is a short text file";
  }
  if (!error->empty()) return false;
  std::ifstream in(path, std::ios::binary);
  if (in) text->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (!in || in.bad()) *error = "cannot read " + the_noun + ": " + std::strerror(errno);
  return error->empty();
}

// Reads and merges the overlay file into `root`; false after its errors.
bool MergeOverlayFile(YAML::Node root, const std::string& overlay, scenario::Places* places,
                      std::vector<ScenarioError>* errors) {
  std::string text, error;
  if (!ReadFile(overlay, "an overlay", &text, &error)) {
    errors->push_back({overlay, 0, 0, "", error});
    return false;
  }
  YAML::Node top;
  if (!scenario::ParseScenarioText(text, overlay, &top, errors, scenario::TextKind::kOverlay)) {
    return false;
  }
  return scenario::MergeOverlay(root, top, overlay, places, errors);
}

// The scenario's tree with the overlay merged, and where each key came from.
bool ParseEdited(const std::string& text, const std::string& file, const std::string& overlay,
                 YAML::Node* root, scenario::Places* places, std::vector<ScenarioError>* errors) {
  if (!scenario::ParseScenarioText(text, file, root, errors)) return false;
  (*places)[""] = {file, scenario::PositionOf(root->Mark())};
  scenario::RecordPlaces(*root, "", file, places);
  return overlay.empty() || MergeOverlayFile(*root, overlay, places, errors);
}

void LoadText(const std::string& text, const std::string& file, const ScenarioEdits& edits,
              proto::Scenario* out, std::vector<ScenarioError>* errors,
              std::vector<ScenarioError>* warnings) {
  YAML::Node root;
  scenario::Places places;
  if (!ParseEdited(text, file, edits.overlay, &root, &places, errors)) return;

  std::vector<Issue> issues;
  std::vector<AppliedOverride> applied;
  scenario::ApplyOverrides(root, edits.overrides, &applied, &issues);
  scenario::ApplyDefaults(root);
  scenario::YamlToMessage(root, "", out, &issues);
  // Semantic rules read typed values; after a type error they would only add noise.
  if (issues.empty()) scenario::ValidateScenario(*out, &issues);

  LocateAll(issues, file, places, applied, errors);
  if (!issues.empty() || warnings == nullptr) return;
  std::vector<Issue> warned;
  scenario::WarnScenario(*out, &warned);
  LocateAll(warned, file, places, applied, warnings);
}

}  // namespace

std::string ScenarioError::String() const {
  std::string s = file;
  if (line > 0) s += ":" + std::to_string(line) + ":" + std::to_string(column);
  s += ": ";
  if (!key.empty()) s += key + ": ";
  return s + message;
}

bool LoadScenario(const std::string& path, const ScenarioEdits& edits, proto::Scenario* out,
                  std::vector<ScenarioError>* errors, std::vector<ScenarioError>* warnings) {
  std::string text;
  std::string error;
  try {
    if (ReadFile(path, "a scenario", &text, &error)) {
      return LoadScenarioFromString(text, path, edits, out, errors, warnings);
    }
  } catch (const std::exception& e) {
    error = std::string("cannot read the scenario: ") + e.what();
  }
  errors->push_back({path, 0, 0, "", error});
  return false;
}

bool LoadScenarioFromString(const std::string& yaml_text, const std::string& file_name,
                            const ScenarioEdits& edits, proto::Scenario* out,
                            std::vector<ScenarioError>* errors,
                            std::vector<ScenarioError>* warnings) {
  const size_t before = errors->size();
  out->Clear();
  try {
    LoadText(yaml_text, file_name, edits, out, errors, warnings);
  } catch (const std::exception& e) {
    // A bug of ours, not the user's: say so rather than blame the file.
    errors->push_back({file_name, 0, 0, "", std::string("internal error in mpsim: ") + e.what()});
  }
  return errors->size() == before;
}

bool OverlaidScenarioText(const std::string& yaml_text, const std::string& file_name,
                          const std::string& overlay, std::string* out,
                          std::vector<ScenarioError>* errors) {
  const size_t before = errors->size();
  try {
    YAML::Node root;
    scenario::Places places;
    if (ParseEdited(yaml_text, file_name, overlay, &root, &places, errors)) {
      *out = YAML::Dump(root) + "\n";
    }
  } catch (const std::exception& e) {
    errors->push_back({file_name, 0, 0, "", std::string("internal error in mpsim: ") + e.what()});
  }
  return errors->size() == before;
}

}  // namespace mpsim
