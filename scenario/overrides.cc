#include "scenario/overrides.h"

#include "scenario/scenario.pb.h"
#include "sim/yaml_to_proto.h"

namespace mpsim::scenario {
namespace {

std::string Trim(std::string_view text) {
  const size_t begin = text.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return "";
  const size_t end = text.find_last_not_of(" \t");
  return std::string(text.substr(begin, end - begin + 1));
}

std::string Items(size_t n) { return std::to_string(n) + (n == 1 ? " item" : " items"); }

// Replaces the node at steps[i..] below `node` with `value`.
bool SetAt(YAML::Node node, const std::vector<PathStep>& steps, size_t i, const YAML::Node& value,
           std::string* error) {
  const PathStep& step = steps[i];
  const std::string here = PathString({steps.begin(), steps.begin() + i});
  const bool last = i + 1 == steps.size();
  if (step.kind == PathStep::Kind::kKey) {
    if (!node.IsMap() && !node.IsNull()) {
      *error = (here.empty() ? "the top level" : here) + " is not a mapping in the file";
      return false;
    }
    if (last) {
      node[step.key] = value;
      return true;
    }
    const YAML::Node& view = node;
    if (!view[step.key].IsDefined()) node[step.key] = YAML::Node(YAML::NodeType::Map);
    return SetAt(node[step.key], steps, i + 1, value, error);
  }
  if (!node.IsSequence()) {
    *error = here + " is not a list in the file";
    return false;
  }
  if (step.index >= node.size()) {
    *error = "index " + std::to_string(step.index) + " is out of range: " + here + " has " +
             Items(node.size());
    return false;
  }
  if (last) {
    node[step.index] = value;
    return true;
  }
  return SetAt(node[step.index], steps, i + 1, value, error);
}

bool ParseValue(const std::string& text, YAML::Node* value, std::string* error) {
  try {
    *value = YAML::Load(text);
    return true;
  } catch (const YAML::Exception& e) {
    *error = "cannot read the value " + Quote(text) + " as YAML: " + e.msg;
    return false;
  }
}

bool ApplyOne(YAML::Node root, const std::string& arg, std::string* path, std::string* error) {
  const size_t eq = arg.find('=');
  if (eq == std::string::npos) {
    *error = "expected PATH=VALUE, such as spec.horizon=2h";
    return false;
  }
  *path = Trim(std::string_view(arg).substr(0, eq));
  std::vector<PathStep> steps;
  if (!ResolvePath(proto::Scenario::descriptor(), *path, &steps, error)) return false;
  for (const PathStep& s : steps) {
    if (s.kind == PathStep::Kind::kEach) {
      *error = "name one list element, such as [0], not []";
      return false;
    }
  }
  YAML::Node value;
  if (!ParseValue(arg.substr(eq + 1), &value, error)) return false;
  if (!SetAt(root, steps, 0, value, error)) return false;
  *path = PathString(steps);
  return true;
}

}  // namespace

void ApplyOverrides(YAML::Node root, const std::vector<std::string>& overrides,
                    std::vector<AppliedOverride>* applied, std::vector<Issue>* issues) {
  for (const std::string& arg : overrides) {
    const std::string origin = "--set " + arg;
    std::string path;
    std::string error;
    if (ApplyOne(root, arg, &path, &error)) {
      applied->push_back({path, origin});
    } else {
      issues->push_back({"", error, origin});  // the message names the part at fault
    }
  }
}

}  // namespace mpsim::scenario
