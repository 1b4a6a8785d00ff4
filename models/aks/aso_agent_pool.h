// Azure Service Operator's ManagedClustersAgentPool resource for one pool
// (docs/reference/azure-managed.md §1.4, §2.4, §3.2, §3.4): the spec CAPZ
// writes (count, orchestratorVersion), its generation and reconcile-policy,
// and what ASO reports back: status (count, version, provisioningState,
// enableAutoScaling) and the Ready condition with its reason, severity and
// observedGeneration.
//
// ASO reconciles `asoReconcileDelay` after a change of the resource or the
// end of the AKS operation it started. Under policy `skip` it only reads the
// pool (AzureResourceNotFound while there is none). It sends a PUT only for
// a generation it has not applied (or to retry a Failed pool), and only
// while the pool is Succeeded, Failed or Canceled; otherwise it reports
// ReconciliationBlocked (Warning) and retries after `asoBlockedRetry`. AKS
// validation errors are Error (terminal) conditions. A deployed resource is
// re-read every `asoSyncPeriod`, and only then does a count AKS changed on
// its own reach status.count.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "api/meta.h"
#include "models/aks/agent_pool.h"
#include "models/aks/aks_options.h"
#include "sim/event_loop.h"
#include "sim/random.h"
#include "sim/recorder.h"

namespace mpsim::aks {

// The Ready condition of an ASO resource.
struct AsoReady {
  bool present = false;
  bool status = false;
  std::string reason;
  std::string severity;  // Info, Warning or Error
  int64_t observed_generation = 0;
  std::string message;
  bool operator==(const AsoReady&) const = default;
};

// What CAPZ writes of the ManagedClustersAgentPool spec.
struct AsoAgentPoolSpec {
  std::optional<int32_t> count;  // unset: AKS keeps its count
  std::string orchestrator_version;
  bool operator==(const AsoAgentPoolSpec&) const = default;
};

class AsoAgentPool {
 public:
  AsoAgentPool(EventLoop* loop, Recorder* rec, std::string pool, AgentPool* aks,
               const AksOptions& opts, uint64_t seed);
  AsoAgentPool(const AsoAgentPool&) = delete;
  AsoAgentPool& operator=(const AsoAgentPool&) = delete;

  bool exists() const { return exists_; }
  const AsoAgentPoolSpec& spec() const { return spec_; }
  int64_t generation() const { return generation_; }
  const std::string& reconcile_policy() const { return policy_; }
  std::optional<int32_t> status_count() const { return status_count_; }
  const std::string& status_version() const { return status_version_; }
  const std::string& status_provisioning_state() const { return status_state_; }
  bool status_enable_auto_scaling() const { return status_autoscaling_; }
  const AsoReady& ready() const { return ready_; }

  // Creates the resource (generation 1) under `policy` ("manage" or "skip").
  void Create(const AsoAgentPoolSpec& spec, const std::string& policy);
  // A patch: a spec change bumps the generation; either change makes ASO reconcile.
  void Update(const AsoAgentPoolSpec& spec, const std::string& policy);
  // Deletes the resource; under `manage` ASO deletes the agent pool first.
  void Delete();

  // The object that owns the resource (its controller owner reference).
  const ObjectKey& owner() const { return owner_; }
  void set_owner(const ObjectKey& owner) { owner_ = owner; }

  // Called whenever the status or Ready condition changes (ASO's status
  // update, which the AzureASOManagedMachinePool watches through its owner).
  std::function<void(const ObjectKey& owner)> on_status;

 private:
  void Schedule(Duration after);
  void Reconcile();
  void ReconcileManaged();
  void Refresh();
  void SetReady(bool status, const std::string& reason, const std::string& severity,
                const std::string& message);
  void Notify();

  EventLoop* loop_;
  Recorder* rec_;
  std::string pool_;
  AgentPool* aks_;
  AksOptions opts_;
  Rng rng_;
  bool exists_ = false;
  bool deleting_ = false;
  AsoAgentPoolSpec spec_;
  int64_t generation_ = 0;
  int64_t applied_generation_ = 0;  // the generation of ASO's last PUT
  bool awaiting_ = false;           // ASO's PUT is running in AKS
  bool rejected_ = false;           // AKS refused this generation's PUT
  std::string policy_;
  std::optional<int32_t> status_count_;
  std::string status_version_;
  std::string status_state_;
  bool status_autoscaling_ = false;
  AsoReady ready_;
  ObjectKey owner_;
  bool changed_ = false;    // status or condition changed since the last Notify
  uint64_t scheduled_ = 0;  // drops reconciles superseded by a newer schedule
};

}  // namespace mpsim::aks
