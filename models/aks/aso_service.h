// CAPZ's ASO create-or-update for the agent-pool spec
// (azure/services/aso/aso.go CreateOrUpdateResource and the agent-pool
// spec's Parameters, docs/reference/azure-managed.md §1.3, §1.4): what the
// AzureManagedMachinePool's service asks of the ASO resource, and how it
// reads the resource's Ready condition.
#pragma once

#include <optional>
#include <string>

#include "api/time.h"
#include "models/aks/aso_agent_pool.h"

namespace mpsim::aks {

// aso.go requeueInterval: while ASO is not done (§1.4).
inline constexpr Duration kAsoRequeue = 20 * kSecond;

// The error kinds CAPZ's reconcilers tell apart (ctl:280-294).
struct ServiceResult {
  enum class Kind { kDone, kNotDone, kTransient, kTerminal, kError };
  Kind kind = Kind::kDone;
  Duration requeue_after = 0;  // kNotDone and kTransient
  std::string message;
  bool done() const { return kind == Kind::kDone; }
};

// buildAgentPoolSpec and Parameters (scope:161-246, apspec:182-195, :322-327):
// the count is the MachinePool's replicas (1 when unset), or under
// autoscaling the existing status.count; the version is the higher of the
// MachinePool's (without the `v`) and the pool's, so CAPZ never downgrades.
AsoAgentPoolSpec BuildAgentPoolSpec(const std::optional<int32_t>& replicas,
                                    const std::optional<std::string>& version, bool autoscaling,
                                    const AsoAgentPool& existing);

// CreateOrUpdateResource (aso:78-307): creates the resource under policy
// `skip`, adopts it (`manage`) once it has a Ready condition, patches a
// changed spec, and otherwise answers from the Ready condition.
ServiceResult CreateOrUpdateAgentPool(AsoAgentPool* aso, const AsoAgentPoolSpec& desired);

// Semantic versions without the `v`, compared numerically ("1.9" < "1.10").
bool VersionLess(const std::string& a, const std::string& b);

}  // namespace mpsim::aks
