#include "api/meta.h"

#include <algorithm>

#include "util/string_hash.h"

namespace mpsim {

const Condition* FindCondition(const Conditions& cs, const std::string& type) {
  for (const Condition& c : cs) {
    if (BytesEqual(c.type, type)) return &c;
  }
  return nullptr;
}

void SetCondition(Conditions* cs, Condition c, Time now) {
  for (Condition& existing : *cs) {
    if (existing.type != c.type) continue;
    c.last_transition_time = existing.status == c.status ? existing.last_transition_time : now;
    existing = std::move(c);
    return;
  }
  c.last_transition_time = now;
  cs->push_back(std::move(c));
}

bool IsConditionTrue(const Conditions& cs, const std::string& type) {
  const Condition* c = FindCondition(cs, type);
  return c != nullptr && BytesEqual(c->status, "True");
}

const OwnerReference* ControllerOwner(const ObjectMeta& m, const std::string& kind) {
  for (const OwnerReference& o : m.owner_references) {
    if (o.kind == kind && o.controller) return &o;
  }
  return nullptr;
}

bool HasFinalizer(const ObjectMeta& m, const std::string& finalizer) {
  return std::find(m.finalizers.begin(), m.finalizers.end(), finalizer) != m.finalizers.end();
}

}  // namespace mpsim
