#include "scenario/overlay.h"

#include <set>

#include "sim/scenario_schema.h"
#include "sim/yaml_to_proto.h"

namespace mpsim::scenario {
namespace {

constexpr const char* kPools = "spec.machinePools";

bool OverlayNamesDist(const YAML::Node& node) { return node.IsMap() && node["dist"].IsDefined(); }

// The scalar `name` of a pool mapping, or "" if it has none.
std::string PoolName(const YAML::Node& pool) {
  if (!pool.IsMap()) return "";
  const YAML::Node name = pool["name"];
  return name.IsDefined() && name.IsScalar() ? name.Scalar() : "";
}

class Merger {
 public:
  Merger(const std::string& file, Places* places, std::vector<ScenarioError>* errors)
      : file_(file), places_(places), errors_(errors) {}

  void Top(YAML::Node root, const YAML::Node& overlay) {
    bool seen = false;
    for (auto it = overlay.begin(); it != overlay.end(); ++it) {
      const YAML::Node key = it->first;
      if (!key.IsScalar() || key.Scalar() != "spec") {
        const std::string name = key.IsScalar() ? Quote(key.Scalar()) : "a key that is not text";
        Fail(key.Mark(), "", "an overlay holds only spec; found " + name + " at its top level");
        continue;
      }
      if (seen) {
        Fail(key.Mark(), "spec", "duplicate key \"spec\"");
        continue;
      }
      seen = true;
      Key(root, "spec", key, it->second, "spec");
    }
  }

 private:
  void Key(YAML::Node parent, const std::string& name, const YAML::Node& key,
           const YAML::Node& value, const std::string& path) {
    const YAML::Node& view = parent;
    const YAML::Node existing = view[name];
    const bool into_mapping = existing.IsDefined() && existing.IsMap();
    if (path == kPools) return Pools(parent, key, value);
    if (into_mapping && value.IsNull()) return;  // `key:` is an empty mapping
    if (into_mapping && value.IsMap() && !OverlayNamesDist(value)) {
      return Mapping(parent[name], value, path);
    }
    parent[name] = value;
    ForgetPlaces(path, places_);
    (*places_)[path] = {file_, PositionOf(key.Mark())};
    RecordPlaces(value, path, file_, places_);
  }

  void Mapping(YAML::Node target, const YAML::Node& overlay, const std::string& path) {
    std::set<std::string> seen;
    for (auto it = overlay.begin(); it != overlay.end(); ++it) {
      if (!it->first.IsScalar()) {
        Fail(it->first.Mark(), path, "expected plain keys, got a key that is not text");
        continue;
      }
      const std::string& name = it->first.Scalar();
      const std::string key_path = JoinKey(path, name);
      if (!seen.insert(name).second) {
        Fail(it->first.Mark(), key_path, "duplicate key " + Quote(name));
        continue;
      }
      Key(target, name, it->first, it->second, key_path);
    }
  }

  // Each overlay pool into the scenario's pool of its name.
  void Pools(YAML::Node spec, const YAML::Node& key, const YAML::Node& pools) {
    if (!pools.IsSequence()) {
      return Fail(key.Mark(), kPools,
                  "expected a list of pools, each naming the scenario's pool it changes");
    }
    const YAML::Node& view = spec;
    YAML::Node existing = view["machinePools"];
    for (auto it = pools.begin(); it != pools.end(); ++it) {
      const std::string name = PoolName(*it);
      if (name.empty()) {
        Fail(it->Mark(), kPools, "expected a pool with the name of the scenario's pool it changes");
        continue;
      }
      const size_t index = IndexOf(existing, name);
      if (index == kNone) {
        Fail((*it)["name"].Mark(), kPools,
             "the scenario has no pool " + Quote(name) +
                 "; an overlay changes pools, never adds one");
        continue;
      }
      Mapping(existing[index], *it, JoinIndex(kPools, index));
    }
  }

  static constexpr size_t kNone = static_cast<size_t>(-1);

  // The index of the pool named `name`, or kNone.
  static size_t IndexOf(const YAML::Node& pools, const std::string& name) {
    for (size_t i = 0; pools.IsSequence() && i < pools.size(); ++i) {
      if (PoolName(pools[i]) == name) return i;
    }
    return kNone;
  }

  void Fail(const YAML::Mark& mark, const std::string& path, std::string message) {
    const TextPosition at = PositionOf(mark);
    errors_->push_back({file_, at.line, at.column, path, std::move(message)});
  }

  const std::string& file_;
  Places* places_;
  std::vector<ScenarioError>* errors_;
};

}  // namespace

bool MergeOverlay(YAML::Node root, const YAML::Node& overlay, const std::string& file,
                  Places* places, std::vector<ScenarioError>* errors) {
  const size_t before = errors->size();
  Merger(file, places, errors).Top(root, overlay);
  return errors->size() == before;
}

}  // namespace mpsim::scenario
