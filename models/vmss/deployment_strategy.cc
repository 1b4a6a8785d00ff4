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

// The machines the selectors take before any count (docs/reference/providers.md §2.6.3
// decision steps 1-2), in policy order.
struct Marked {
  std::vector<const MachineView*> failed, deleting, annotated;
};

Marked MarkedOf(const std::vector<const MachineView*>& order) {
  Marked out;
  for (const MachineView* m : order) {
    if (m->annotated) out.annotated.push_back(m);
    if (m->going) continue;
    if (m->failed) out.failed.push_back(m);
    if (m->deleting) out.deleting.push_back(m);
  }
  return out;
}

// orderByDeleteMachineAnnotation: annotated machines to the front, the rest
// in policy order. Its comparator is no strict order, but the whole group
// is returned, so the order changes no victim.
void AnnotatedFirst(std::vector<const MachineView*>* ms) {
  std::stable_partition(ms->begin(), ms->end(), [](const MachineView* m) { return m->annotated; });
}

// Steps 1-2 of both versions: failed then deleting machines, annotated first
// in each; else every annotated machine; else nothing (the counts decide).
std::vector<uint64_t> MarkedVictims(const std::vector<const MachineView*>& order) {
  Marked marked = MarkedOf(order);
  if (!marked.failed.empty() || !marked.deleting.empty()) {
    AnnotatedFirst(&marked.failed);
    AnnotatedFirst(&marked.deleting);
    marked.failed.insert(marked.failed.end(), marked.deleting.begin(), marked.deleting.end());
    return Ids(marked.failed, marked.failed.size());
  }
  return Ids(marked.annotated, marked.annotated.size());
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

namespace {

// The replacements of a pass with enough ready machines: at most the
// unavailability budget of ready old-model machines (`ready` in policy order).
std::vector<uint64_t> ReplaceOldModel(int32_t desired, const std::string& max_unavailable,
                                      const std::vector<const MachineView*>& ready) {
  const int32_t n_ready = static_cast<int32_t>(ready.size());
  const int32_t unavailable = ScaledValue(max_unavailable, desired, false);
  const int32_t budget = unavailable > desired ? desired : n_ready - desired + unavailable;
  if (budget <= 0) return {};
  std::vector<const MachineView*> ready_old;
  for (const MachineView* m : ready) {
    if (!m->latest_model) ready_old.push_back(m);
  }
  return Ids(ready_old, static_cast<size_t>(budget));
}

}  // namespace

// v1.26.0 (docs/reference/providers.md §2.6.3): failed and deleting machines first, then
// annotated ones; never replace while short of ready machines; over-provision
// removes old-model machines first; then at most the unavailability budget of
// ready old-model ones.
std::vector<uint64_t> SelectMachinesToDelete(int32_t desired, const std::string& max_unavailable,
                                             DeletePolicy policy,
                                             const std::vector<MachineView>& machines, Rng* rng) {
  const std::vector<const MachineView*> order = Ordered(machines, policy, rng);
  if (std::vector<uint64_t> marked = MarkedVictims(order); !marked.empty()) return marked;
  std::vector<const MachineView*> ready, old_model;
  for (const MachineView* m : order) {
    if (m->going) continue;
    if (m->ready && !m->deleting) ready.push_back(m);
    if (!m->latest_model) old_model.push_back(m);
  }
  const int32_t n_ready = static_cast<int32_t>(ready.size());
  if (n_ready < desired) return {};
  if (n_ready > desired) {
    std::vector<const MachineView*> pick = old_model;
    for (const MachineView* m : ready) {
      if (m->latest_model) pick.push_back(m);
    }
    return Ids(pick, static_cast<size_t>(n_ready - desired));
  }
  return ReplaceOldModel(desired, max_unavailable, ready);
}

bool RolloutInProgress(int32_t desired, int32_t last_reconciled_replicas, bool all_latest_model) {
  return !(desired < last_reconciled_replicas) && !all_latest_model;
}

// HEAD (docs/reference/providers.md §2.6.3, commits 0ef04d737 and 5db8772d2): failed and
// deleting machines first, then annotated ones, as before. Over-provision is ready plus unready
// machines less the protected ones: during a rollout, as many unready
// latest-model machines as there are ready old-model ones they will replace.
// Victims: unready old-model, then the first (count - protected) unready
// latest-model ones in policy order, so the last ones are protected; then
// ready old-model, ready latest-model. Only then does a shortage of ready
// machines stop the pass.
std::vector<uint64_t> SelectMachinesToDeleteHead(int32_t desired,
                                                 const std::string& max_unavailable,
                                                 DeletePolicy policy,
                                                 const std::vector<MachineView>& machines,
                                                 bool rollout_in_progress, Rng* rng) {
  const std::vector<const MachineView*> order = Ordered(machines, policy, rng);
  if (std::vector<uint64_t> marked = MarkedVictims(order); !marked.empty()) return marked;
  std::vector<const MachineView*> ready, ready_old, ready_new, unready_old, unready_new;
  for (const MachineView* m : order) {
    if (m->going || m->failed || m->deleting) continue;
    if (m->ready) {
      ready.push_back(m);
      (m->latest_model ? ready_new : ready_old).push_back(m);
    } else {
      (m->latest_model ? unready_new : unready_old).push_back(m);
    }
  }
  const size_t protect = rollout_in_progress ? std::min(ready_old.size(), unready_new.size()) : 0;
  const int64_t over =
      static_cast<int64_t>(ready.size() + unready_old.size() + unready_new.size() - protect) -
      desired;
  if (over > 0) {
    std::vector<const MachineView*> pick = unready_old;
    pick.insert(pick.end(), unready_new.begin(),
                unready_new.end() - static_cast<ptrdiff_t>(protect));
    pick.insert(pick.end(), ready_old.begin(), ready_old.end());
    pick.insert(pick.end(), ready_new.begin(), ready_new.end());
    return Ids(pick, static_cast<size_t>(over));
  }
  if (static_cast<int32_t>(ready.size()) < desired) return {};
  return ReplaceOldModel(desired, max_unavailable, ready);
}

}  // namespace mpsim::vmss
