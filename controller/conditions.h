// Condition helpers of the MachinePool controller: the v1beta1 flavour kept
// under status.deprecated.v1beta1 (set, mirror, summary, as in
// util/conditions/deprecated/v1beta1) and the v1beta2 state comparisons.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "api/meta.h"
#include "api/objects.h"

namespace mpsim {

// status.deprecated.v1beta1, allocated on first use as SetV1Beta1Conditions does.
MachinePoolV1Beta1Status& V1Beta1(MachinePool* mp);
// nullptr while status.deprecated.v1beta1 is absent.
const MachinePoolV1Beta1Status* FindV1Beta1(const MachinePool& mp);
// deprecated.v1beta1.readyReplicas, 0 when the block is absent.
int32_t V1Beta1ReadyReplicas(const MachinePool& mp);
// nullptr when absent.
const Condition* FindV1Beta1Condition(const MachinePool& mp, const std::string& type);

// v1beta1 Set: replaces the condition only when type/status/reason/severity/
// message differ (then lastTransitionTime = now, truncated to seconds), keeps
// Ready first and the others alphabetical. Always allocates the v1beta1 block.
void SetV1Beta1Condition(MachinePool* mp, Condition c, Time now);
void MarkV1Beta1True(MachinePool* mp, const std::string& type, Time now);
void MarkV1Beta1False(MachinePool* mp, const std::string& type, const std::string& reason,
                      const std::string& severity, const std::string& message, Time now);

// SetMirror with WithFallbackValue: copies the external object's v1beta1 Ready
// condition under `type`, else True, or False(reason, Info) when !fallback.
void MirrorV1Beta1(MachinePool* mp, const std::string& type, const Conditions& external,
                   bool fallback, const std::string& fallback_reason, Time now);

// SetSummary(WithConditions(BootstrapReady, InfrastructureReady, ReplicasReady)):
// sets Ready from the worst group of those present; no-op if none is present.
void SetReadySummary(MachinePool* mp, Time now);

// v1beta2 (metav1.Condition) comparisons used by EnsurePausedCondition.
bool HasSameState(const Condition& a, const Condition& b);
bool HasSameStateExceptObservedGeneration(const Condition& a, const Condition& b);

}  // namespace mpsim
