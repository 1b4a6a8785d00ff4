#include "models/mig/update_policy.h"

#include <cassert>

namespace mpsim::mig {

int32_t FixedOrPercent(const std::string& v, int32_t size) {
  assert(!v.empty());
  if (v.back() != '%') return static_cast<int32_t>(std::stol(v));
  const int64_t product = int64_t{std::stoi(v.substr(0, v.size() - 1))} * size;
  return static_cast<int32_t>((product + 99) / 100);
}

bool UpdatesInPlace(const UpdatePolicy& p) {
  return p.minimal_action != MinimalAction::kReplace ||
         p.replacement == ReplacementMethod::kRecreate;
}

UpdateBudget BudgetFor(const UpdatePolicy& p, int32_t size) {
  UpdateBudget b;
  b.surge = UpdatesInPlace(p) ? 0 : FixedOrPercent(p.max_surge, size);
  b.unavailable = FixedOrPercent(p.max_unavailable, size);
  return b;
}

}  // namespace mpsim::mig
