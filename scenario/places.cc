#include "scenario/places.h"

#include <iterator>

#include "sim/scenario_schema.h"

namespace mpsim::scenario {

void RecordPlaces(const YAML::Node& node, const std::string& path, const std::string& file,
                  Places* places) {
  if (node.IsMap()) {
    for (auto it = node.begin(); it != node.end(); ++it) {
      if (!it->first.IsScalar()) continue;
      const std::string key = JoinKey(path, it->first.Scalar());
      (*places)[key] = {file, PositionOf(it->first.Mark())};
      RecordPlaces(it->second, key, file, places);
    }
  } else if (node.IsSequence()) {
    size_t index = 0;
    for (auto it = node.begin(); it != node.end(); ++it, ++index) {
      const std::string item = JoinIndex(path, index);
      (*places)[item] = {file, PositionOf(it->Mark())};
      RecordPlaces(*it, item, file, places);
    }
  }
}

void ForgetPlaces(const std::string& path, Places* places) {
  // Every path below `path` starts with it, so they all sort after it, mixed
  // only with siblings that share the prefix ("a.bc" after "a.b").
  auto it = places->lower_bound(path);
  while (it != places->end() && it->first.compare(0, path.size(), path) == 0) {
    it = IsUnderPath(it->first, path) ? places->erase(it) : std::next(it);
  }
}

Place NearestPlace(const std::string& path, const Places& places) {
  for (std::string p = path;; p = ParentPath(p)) {
    auto found = places.find(p);
    if (found != places.end() && found->second.position.line > 0) return found->second;
    if (p.empty()) return {};
  }
}

}  // namespace mpsim::scenario
