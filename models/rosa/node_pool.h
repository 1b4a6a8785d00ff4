// A simulated ROSA HCP NodePool as OCM shows it (docs/reference/aws-managed.md
// §3): replicas, current replicas (Nodes Ready), the version, a manual
// upgrade policy that starts at its nextRun, and the rolling replacement
// HyperShift runs (maxSurge new instances up, then the old ones out, never
// more than maxUnavailable below the replicas); and its EC2 instances, which
// DescribeInstances lists while pending or running.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "api/status.h"
#include "models/common/launch_order.h"
#include "models/rosa/rosa_options.h"
#include "sim/event_loop.h"
#include "sim/random.h"
#include "sim/recorder.h"
#include "sim/workload_cluster.h"
#include "util/shared_string.h"

namespace mpsim::rosa {

// EC2 instance-state-name values the model uses.
enum class Ec2State { kPending, kRunning, kShuttingDown };

struct Instance {
  std::string id;
  std::string zone;
  Ec2State state = Ec2State::kPending;
  std::string version;
  uint64_t seq = 0;
  SharedString provider_id;  // aws:///<az>/<id>
};

// An OCM upgrade policy for the NodePool (§3.7).
struct UpgradePolicy {
  std::string version;
  Time next_run = 0;
  std::string state = "scheduled";  // scheduled, started (completed ones are dropped)
};

class NodePool {
 public:
  NodePool(EventLoop* loop, WorkloadCluster* workload, Recorder* rec, std::string pool,
           RosaOptions opts, uint64_t seed);
  NodePool(const NodePool&) = delete;
  NodePool& operator=(const NodePool&) = delete;

  bool exists() const { return exists_; }
  int32_t replicas() const { return replicas_; }
  const std::string& version() const { return version_; }
  // status.currentReplicas: the pool's instances whose Node is Ready.
  int32_t CurrentReplicas() const;
  const std::optional<UpgradePolicy>& upgrade() const { return upgrade_; }
  const RosaOptions& options() const { return opts_; }

  // CreateNodePool; AlreadyExists if it exists.
  Status Create(int32_t replicas, const std::string& version);
  // UpdateNodePool with replicas.
  Status SetReplicas(int32_t replicas);
  // ScheduleHypershiftControlPlaneUpgrade for the NodePool: a manual policy
  // to `version` at `next_run`.
  Status ScheduleUpgrade(const std::string& version, Time next_run);
  Status Delete();
  // DescribeInstances with instance-state-name in {running, pending}: in
  // launch order.
  std::vector<const Instance*> RunningOrPending() const;
  std::vector<std::string> Running() const;
  void Kill(const std::string& id);

 private:
  void ScheduleActivity(Duration delay);
  void Activity();
  bool LaunchOne(const std::string& version);
  void OnRunning(const std::string& id);
  void Terminate(const std::string& id);
  void StartUpgrade();
  // One step of the rolling replacement, run by each activity while an
  // upgrade is started.
  void RollStep();
  bool NodeReady(const std::string& id) const;
  void Tick();

  // How often HyperShift re-checks a rolling replacement (mpsim choice).
  static constexpr Duration kRollTick = 5 * kSecond;

  EventLoop* loop_;
  WorkloadCluster* workload_;
  Recorder* rec_;
  std::string pool_;
  RosaOptions opts_;
  Rng op_rng_, launch_rng_, delete_rng_, id_rng_, fault_rng_;
  bool exists_ = false;
  int32_t replicas_ = 0;
  std::string version_;  // the NodePool's version; new instances before an upgrade starts
  std::optional<UpgradePolicy> upgrade_;
  bool rolling_ = false;
  bool ticking_ = false;
  std::optional<EventId> activity_;
  uint64_t next_seq_ = 0;
  std::map<std::string, Instance> instances_;
  LaunchOrder<Instance> order_;
  int32_t live_ = 0;  // pending or running
};

}  // namespace mpsim::rosa
