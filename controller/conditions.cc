#include "controller/conditions.h"

#include <algorithm>
#include <vector>

#include "controller/capi_names.h"

namespace mpsim {
namespace {

// metav1.Time serialises whole seconds; v1beta1 Set truncates time.Now().
Time TruncateToSecond(Time t) { return t - ((t % kSecond) + kSecond) % kSecond; }

bool SameV1Beta1State(const Condition& a, const Condition& b) {
  return a.type == b.type && a.status == b.status && a.reason == b.reason &&
         a.severity == b.severity && a.message == b.message;
}

// setter.go lexicographicLess: Ready first, then alphabetical by type.
bool LexicographicLess(const Condition& i, const Condition& j) {
  return (i.type == capi::kReadyV1Beta1 || i.type < j.type) && j.type != capi::kReadyV1Beta1;
}

// merge.go mergePriority; a False condition without a known severity falls to 99.
int MergePriority(const std::string& status, const std::string& severity) {
  if (status == "False") {
    if (severity == capi::kSeverityError) return 0;
    if (severity == capi::kSeverityWarning) return 1;
    if (severity == capi::kSeverityInfo) return 2;
    return 99;
  }
  if (status == "True") return 3;
  if (status == "Unknown") return 4;
  return 99;
}

struct Group {
  std::string status;
  std::string severity;
  Conditions conditions;
};

std::vector<Group> GroupConditions(const Conditions& in_scope) {
  std::vector<Group> groups;
  for (const Condition& c : in_scope) {
    auto it = std::find_if(groups.begin(), groups.end(), [&](const Group& g) {
      return g.status == c.status && g.severity == c.severity;
    });
    if (it == groups.end()) {
      groups.push_back({c.status, c.severity, {c}});
    } else {
      it->conditions.push_back(c);
    }
  }
  std::stable_sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) {
    return MergePriority(a.status, a.severity) < MergePriority(b.status, b.severity);
  });
  if (!groups.empty()) {
    std::stable_sort(groups[0].conditions.begin(), groups[0].conditions.end(), LexicographicLess);
  }
  return groups;
}

}  // namespace

MachinePoolV1Beta1Status& V1Beta1(MachinePool* mp) {
  if (!mp->status.deprecated) mp->status.deprecated.emplace();
  if (!mp->status.deprecated->v1beta1) mp->status.deprecated->v1beta1.emplace();
  return *mp->status.deprecated->v1beta1;
}

const MachinePoolV1Beta1Status* FindV1Beta1(const MachinePool& mp) {
  if (!mp.status.deprecated || !mp.status.deprecated->v1beta1) return nullptr;
  return &*mp.status.deprecated->v1beta1;
}

int32_t V1Beta1ReadyReplicas(const MachinePool& mp) {
  const MachinePoolV1Beta1Status* v = FindV1Beta1(mp);
  return v == nullptr ? 0 : v->ready_replicas;
}

const Condition* FindV1Beta1Condition(const MachinePool& mp, const std::string& type) {
  const MachinePoolV1Beta1Status* v = FindV1Beta1(mp);
  return v == nullptr ? nullptr : FindCondition(v->conditions, type);
}

void SetV1Beta1Condition(MachinePool* mp, Condition c, Time now) {
  Conditions& cs = V1Beta1(mp).conditions;
  auto it =
      std::find_if(cs.begin(), cs.end(), [&](const Condition& e) { return e.type == c.type; });
  if (it != cs.end()) {
    if (!SameV1Beta1State(*it, c)) {
      c.last_transition_time = TruncateToSecond(now);
      *it = std::move(c);
    }
  } else {
    if (c.last_transition_time == 0) c.last_transition_time = TruncateToSecond(now);
    cs.push_back(std::move(c));
  }
  std::stable_sort(cs.begin(), cs.end(), LexicographicLess);
}

void MarkV1Beta1True(MachinePool* mp, const std::string& type, Time now) {
  SetV1Beta1Condition(mp, {.type = type, .status = "True"}, now);
}

void MarkV1Beta1False(MachinePool* mp, const std::string& type, const std::string& reason,
                      const std::string& severity, const std::string& message, Time now) {
  SetV1Beta1Condition(
      mp,
      {.type = type, .status = "False", .reason = reason, .message = message, .severity = severity},
      now);
}

void MirrorV1Beta1(MachinePool* mp, const std::string& type, const Conditions& external,
                   bool fallback, const std::string& fallback_reason, Time now) {
  const Condition* ready = FindCondition(external, capi::kReadyV1Beta1);
  Condition c;
  if (ready != nullptr) {
    c = *ready;
  } else if (fallback) {
    c = {.status = "True"};
  } else {
    c = {.status = "False", .reason = fallback_reason, .severity = capi::kSeverityInfo};
  }
  c.type = type;
  c.observed_generation = 0;
  SetV1Beta1Condition(mp, std::move(c), now);
}

void SetReadySummary(MachinePool* mp, Time now) {
  const MachinePoolV1Beta1Status* v = FindV1Beta1(*mp);
  if (v == nullptr) return;
  Conditions in_scope;
  for (const Condition& c : v->conditions) {
    if (c.type == capi::kBootstrapReadyV1Beta1 || c.type == capi::kInfrastructureReadyV1Beta1 ||
        c.type == capi::kReplicasReadyV1Beta1) {
      in_scope.push_back(c);
    }
  }
  std::vector<Group> groups = GroupConditions(in_scope);
  if (groups.empty()) return;
  const Group& top = groups[0];
  if (top.status == "True") {
    MarkV1Beta1True(mp, capi::kReadyV1Beta1, now);
    return;
  }
  // The top group is sorted in the priority order (Bootstrap, Infrastructure, Replicas).
  const Condition& first = top.conditions[0];
  Condition ready{.type = capi::kReadyV1Beta1,
                  .status = top.status,
                  .reason = first.reason,
                  .message = first.message};
  if (top.status == "False") ready.severity = top.severity;
  SetV1Beta1Condition(mp, std::move(ready), now);
}

bool HasSameState(const Condition& a, const Condition& b) {
  return HasSameStateExceptObservedGeneration(a, b) &&
         a.observed_generation == b.observed_generation;
}

bool HasSameStateExceptObservedGeneration(const Condition& a, const Condition& b) {
  return a.type == b.type && a.status == b.status && a.reason == b.reason && a.message == b.message;
}

}  // namespace mpsim
