#include "models/aks/aso_service.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace mpsim::aks {
namespace {

ServiceResult NotDone(const std::string& message) {
  return {ServiceResult::Kind::kNotDone, kAsoRequeue, message};
}

// The Ready condition as the service reads it (aso:111-149): status,
// reason and severity, not observedGeneration.
ServiceResult FromReady(const AsoReady& r) {
  if (!r.present) return {ServiceResult::Kind::kTransient, kAsoRequeue, "ready status unknown"};
  if (r.status) return {};
  const bool terminal = r.severity == "Error";
  if (r.reason == "Reconciling") {
    if (terminal) return {ServiceResult::Kind::kTerminal, 0, r.message};
    return NotDone("operation not done: " + r.message);
  }
  const std::string message = "resource is not Ready: " + r.message;
  if (terminal) return {ServiceResult::Kind::kTerminal, 0, message};
  return {ServiceResult::Kind::kTransient, kAsoRequeue, message};
}

// "1.30.2" -> {1, 30, 2}; a part that is not a number counts as 0.
std::vector<long> VersionParts(const std::string& v) {
  std::vector<long> parts;
  size_t at = 0;
  while (at <= v.size()) {
    const size_t dot = std::min(v.find('.', at), v.size());
    parts.push_back(std::strtol(v.substr(at, dot - at).c_str(), nullptr, 10));
    at = dot + 1;
  }
  return parts;
}

std::string WithoutV(const std::string& v) { return !v.empty() && v[0] == 'v' ? v.substr(1) : v; }

}  // namespace

bool VersionLess(const std::string& a, const std::string& b) {
  return VersionParts(a) < VersionParts(b);
}

AsoAgentPoolSpec BuildAgentPoolSpec(const std::optional<int32_t>& replicas,
                                    const std::optional<std::string>& version, bool autoscaling,
                                    const AsoAgentPool& existing) {
  AsoAgentPoolSpec spec;
  spec.count = replicas.value_or(1);
  if (autoscaling && existing.status_count()) spec.count = existing.status_count();
  spec.orchestrator_version = WithoutV(version.value_or(""));
  const std::string& current = existing.status_version();
  if (!current.empty() && VersionLess(spec.orchestrator_version, current)) {
    spec.orchestrator_version = current;
  }
  return spec;
}

ServiceResult CreateOrUpdateAgentPool(AsoAgentPool* aso, const AsoAgentPoolSpec& desired) {
  if (!aso->exists()) {
    aso->Create(desired, "skip");  // in case the pool already exists in Azure
    return NotDone("resource created");
  }
  const AsoReady& r = aso->ready();
  ServiceResult ready = FromReady(r);
  // WasManaged is always true for agent pools (apspec:345-349): a resource
  // created under `skip` is adopted once ASO has reported on it.
  std::string policy = aso->reconcile_policy();
  if (policy == "skip" && r.present) {
    policy = "manage";
    if (!r.status && r.reason == "AzureResourceNotFound") ready = {};
  }
  if (!(desired == aso->spec()) || policy != aso->reconcile_policy()) {
    aso->Update(desired, policy);
    return NotDone("resource updated");
  }
  return ready;
}

}  // namespace mpsim::aks
