// One AKS agent pool as the AKS API shows it (docs/reference/azure-managed.md
// §3): its count, orchestrator version and provisioningState, over the scale
// set that holds its nodes. A PUT is refused while another operation runs
// (scale and upgrade never at once, §3.2) and when the count is outside
// 0..1000 (§3.1). An upgrade is AKS's rolling surge upgrade (§3.3): surge
// nodes on the new version, then batches of old nodes drained, soaked and
// reimaged, then the surge nodes removed; a drain longer than the drain
// timeout fails it. AKS's own cluster autoscaler changes the count straight
// on the scale set, outside any operation.
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <string>

#include "api/status.h"
#include "models/aks/aks_options.h"
#include "models/aks/scale_set.h"
#include "sim/event_loop.h"
#include "sim/random.h"
#include "sim/recorder.h"

namespace mpsim::aks {

// AKS's per-pool node limit (REST count 0..1000 for User pools, §3.1).
inline constexpr int32_t kMaxAgentPoolCount = 1000;

class AgentPool {
 public:
  AgentPool(EventLoop* loop, Recorder* rec, std::string pool, ScaleSet* vmss,
            const AksOptions& opts, uint64_t seed);
  AgentPool(const AgentPool&) = delete;
  AgentPool& operator=(const AgentPool&) = delete;

  bool exists() const { return exists_; }
  // "" (absent), Creating, Scaling, Upgrading, Updating, Deleting, Succeeded, Failed.
  const std::string& provisioning_state() const { return state_; }
  int32_t count() const { return count_; }
  const std::string& orchestrator_version() const { return version_; }
  bool enable_auto_scaling() const { return opts_.autoscaling; }
  // Why the last operation failed, if it did.
  const std::string& error() const { return error_; }
  // The states in which AKS (and ASO before it, §3.2) accepts a PUT.
  static bool AcceptsPut(const std::string& state);

  // Agent Pools - Create Or Update: accepted now, its change made after
  // operationDelay. Invalid past the node limit; Conflict while busy.
  Status Put(int32_t count, const std::string& version);
  // Agent Pools - Delete: every VM goes, then the pool.
  void Delete();

  // Called when an operation ends (Succeeded, Failed, or the pool gone).
  std::function<void()> on_operation_done;

 private:
  enum class Op { kNone, kCreate, kScale, kUpgrade, kUpdate, kDelete };
  void Begin();
  void Progress();
  void ScaleTo(int32_t n);
  bool ScaleDone() const;
  void UpgradeStep();
  void Done(const std::string& error);
  void Autoscale(int32_t n);
  void SetState(const std::string& to);

  EventLoop* loop_;
  Recorder* rec_;
  std::string pool_;
  ScaleSet* vmss_;
  AksOptions opts_;
  Rng op_rng_;
  bool exists_ = false;
  std::string state_;
  int32_t count_ = 0;
  std::string version_;
  std::string error_;
  Op op_ = Op::kNone;
  bool started_ = false;       // the operation's change is being made
  std::set<uint64_t> surge_;   // the upgrade's surge VMs
  int32_t draining_ = 0;       // the upgrade's nodes being drained
  int32_t upgrade_surge_ = 0;  // surge and batch of this upgrade
  int32_t upgrade_batch_ = 0;
};

}  // namespace mpsim::aks
