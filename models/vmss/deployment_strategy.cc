#include "models/vmss/deployment_strategy.h"

#include <algorithm>

namespace mpsim::vmss {
namespace {

bool AllDigits(const std::string& s) {
  return !s.empty() && s.size() <= 9 &&
         std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The delete policy's order of the machines (CAPZ sorts by AMPM
// creationTimestamp; instance IDs grow with it). Random is seeded here,
// where CAPZ seeds it with the time.
std::vector<const MachineView*> Ordered(const std::vector<MachineView>& machines,
                                        DeletePolicy policy, Rng* rng) {
  std::vector<const MachineView*> out;
  out.reserve(machines.size());
  for (const MachineView& m : machines) out.push_back(&m);
  if (policy == DeletePolicy::kNewest) std::reverse(out.begin(), out.end());
  if (policy == DeletePolicy::kRandom) {
    for (size_t i = out.size(); i > 1; --i) std::swap(out[i - 1], out[rng->Below(i)]);
  }
  return out;
}

std::vector<uint64_t> Ids(const std::vector<const MachineView*>& ms, size_t limit) {
  std::vector<uint64_t> out;
  for (size_t i = 0; i < ms.size() && i < limit; ++i) out.push_back(ms[i]->id);
  return out;
}

}  // namespace

bool ValidIntOrPercent(const std::string& v) {
  if (!v.empty() && v.back() == '%') {
    const std::string n = v.substr(0, v.size() - 1);
    return AllDigits(n) && std::stoi(n) <= 100;
  }
  return AllDigits(v);
}

int32_t ScaledValue(const std::string& v, int32_t total, bool round_up) {
  if (v.empty() || v.back() != '%') return std::stoi(v);
  const int64_t product = int64_t{std::stoi(v.substr(0, v.size() - 1))} * total;
  return static_cast<int32_t>(round_up ? (product + 99) / 100 : product / 100);
}

// v1.26.0 (providers.md §2.6.3): failed and deleting machines first; never
// replace while short of ready machines; over-provision removes old-model
// machines first; then at most the unavailability budget of ready old-model ones.
std::vector<uint64_t> SelectMachinesToDelete(int32_t desired, const std::string& max_unavailable,
                                             DeletePolicy policy,
                                             const std::vector<MachineView>& machines, Rng* rng) {
  const std::vector<const MachineView*> order = Ordered(machines, policy, rng);
  std::vector<const MachineView*> ready, broken, old_model;
  for (const MachineView* m : order) {
    if (m->failed || m->deleting) broken.push_back(m);
    if (m->ready && !m->deleting) ready.push_back(m);
    if (!m->latest_model) old_model.push_back(m);
  }
  if (!broken.empty()) return Ids(broken, broken.size());
  const int32_t n_ready = static_cast<int32_t>(ready.size());
  if (n_ready < desired) return {};
  if (n_ready > desired) {
    std::vector<const MachineView*> pick = old_model;
    for (const MachineView* m : ready) {
      if (m->latest_model) pick.push_back(m);
    }
    return Ids(pick, static_cast<size_t>(n_ready - desired));
  }
  const int32_t unavailable = ScaledValue(max_unavailable, desired, false);
  const int32_t budget = unavailable > desired ? desired : n_ready - desired + unavailable;
  if (old_model.empty() || budget <= 0) return {};
  std::vector<const MachineView*> ready_old;
  for (const MachineView* m : ready) {
    if (!m->latest_model) ready_old.push_back(m);
  }
  return Ids(ready_old, static_cast<size_t>(budget));
}

}  // namespace mpsim::vmss
