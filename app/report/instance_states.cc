#include "app/report/instance_states.h"

#include <unordered_map>

#include "models/registry.h"

namespace mpsim {

InstanceStage StageOf(std::string_view state) {
  // Built once from the registration list; a name two providers list keeps
  // the first one's stage.
  static const std::unordered_map<std::string_view, InstanceStage> kStages = [] {
    std::unordered_map<std::string_view, InstanceStage> m;
    for (const ProviderRegistration& p : Providers()) {
      for (const InstanceStateName& s : p.instance_states) m.try_emplace(s.state, s.stage);
    }
    return m;
  }();
  auto it = kStages.find(state);
  return it == kStages.end() ? InstanceStage::kOther : it->second;
}

}  // namespace mpsim
