// Node readiness and availability (controllers/noderefutil/util.go).
#pragma once

#include <cstdint>

#include "api/objects.h"
#include "api/time.h"

namespace mpsim {

// The first condition of type Ready, or nullptr (also for a null status).
const Condition* GetReadyCondition(const NodeStatus* status);
// True iff the first Ready condition has status True.
bool IsNodeReady(const Node* node);
// Ready, and either min_ready_seconds == 0 or the Ready condition's non-zero
// lastTransitionTime + min_ready_seconds is strictly before `now`.
bool IsNodeAvailable(const Node* node, int32_t min_ready_seconds, Time now);
// The second half of IsNodeAvailable, for a caller that already holds the
// True Ready condition (one condition search per Node instead of three).
bool ReadyLongEnough(const Condition& ready, int32_t min_ready_seconds, Time now);

}  // namespace mpsim
