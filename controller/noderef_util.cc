#include "controller/noderef_util.h"

#include "controller/capi_names.h"
#include "util/string_hash.h"

namespace mpsim {

const Condition* GetReadyCondition(const NodeStatus* status) {
  if (status == nullptr) return nullptr;
  return FindCondition(status->conditions, capi::kNodeReady);
}

bool IsNodeReady(const Node* node) {
  if (node == nullptr) return false;
  const Condition* c = GetReadyCondition(&node->status);
  return c != nullptr && BytesEqual(c->status, "True");
}

bool IsNodeAvailable(const Node* node, int32_t min_ready_seconds, Time now) {
  if (!IsNodeReady(node)) return false;
  return ReadyLongEnough(*GetReadyCondition(&node->status), min_ready_seconds, now);
}

bool ReadyLongEnough(const Condition& ready, int32_t min_ready_seconds, Time now) {
  if (min_ready_seconds == 0) return true;
  // A zero lastTransitionTime never counts as available (test G11).
  return ready.last_transition_time != 0 &&
         ready.last_transition_time + min_ready_seconds * kSecond < now;
}

}  // namespace mpsim
