// A simulated GKE node pool (docs/reference/providers.md §3.2, §3.6.2): the Container API's
// long-running operations (create, setSize, setAutoscaling, update, delete),
// one at a time, over one zonal Managed Instance Group per location, the
// surge upgrade GKE runs itself when the version, the image type or the Linux
// node config changes, Kubernetes labels and taints changed on the nodes and
// resource labels and network tags on the VMs in place, zonal groups added
// and deleted as its locations change, and an autoscaler that keeps each
// zone within its bounds.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "api/objects.h"
#include "api/status.h"
#include "models/mig/gke_config_text.h"
#include "models/mig/managed_instance_group.h"
#include "models/mig/mig_options.h"
#include "models/mig/surge_upgrade.h"

namespace mpsim::mig {

// The node config an UpdateNodePool carries: CAPG sends every field that
// differs in one request (docs/reference/providers.md §3.6.2 "config diff"; CAPG
// nodepools/reconcile.go checkDiffAndPrepareUpdateConfig).
struct NodePoolConfig {
  std::string version;     // GKE recreates the nodes by surge steps
  std::string image_type;  // likewise (assumed, as a version change)
  // Set on the existing Nodes in place, without recreating them (GKE docs,
  // "Update Kubernetes node labels and taints for node pools").
  Labels labels;
  std::vector<Taint> taints;  // in order: CAPG compares the lists with cmp.Equal
  // On the VMs, not the Nodes, and changed on the running VMs in place: GKE
  // docs say network tags are updated dynamically (same page); for resource
  // labels that is assumed (docs/defaults.md).
  ResourceLabels resource_labels;
  std::vector<std::string> network_tags;  // in order, as CAPG compares them
  // linuxNodeConfig: a change recreates the nodes by surge steps (assumed
  // from GKE's node system configuration docs; docs/defaults.md).
  Sysctls sysctls;
  std::string cgroup_mode;  // "" unspecified, CGROUP_MODE_V1 or CGROUP_MODE_V2
  // np.locations, in order as CAPG compares them: a new zone gets a group at
  // the pool's nodes per zone, a dropped one loses its group and VMs.
  std::vector<std::string> locations;
  bool operator==(const NodePoolConfig&) const = default;
};

// The fields of `opts` a node pool is created with (all but the version,
// which is the MachinePool's); the locations are `node_locations`, or the
// zones when unset.
NodePoolConfig BlockConfig(const MigOptions& opts);

// Whether GKE moves every node onto a new instance template to go from one
// config to the other: a version, image type or linuxNodeConfig change.
bool RecreatesNodes(const NodePoolConfig& from, const NodePoolConfig& to);

enum class NodePoolStatus { kAbsent, kProvisioning, kRunning, kReconciling, kStopping };
const char* NodePoolStatusName(NodePoolStatus s);

class NodePool {
 public:
  NodePool(EventLoop* loop, WorkloadCluster* workload, Recorder* rec, std::string pool,
           MigOptions opts, uint64_t seed);
  NodePool(const NodePool&) = delete;
  NodePool& operator=(const NodePool&) = delete;

  NodePoolStatus status() const { return status_; }
  const NodePoolConfig& config() const { return config_; }
  const std::string& version() const { return config_.version; }
  const std::string& image_type() const { return config_.image_type; }
  const GkeAutoscaling& autoscaling() const { return autoscaling_; }
  // np.initialNodeCount, what CAPG's size check compares with: the size the
  // pool was created with, and each SetNodePoolSize's size only if
  // MigOptions::initial_node_count_follows_size (unverified, docs/reference/providers.md §5).
  int32_t initial_node_count() const { return initial_node_count_; }
  // The nodes per zone GKE keeps: as created or set, within the autoscaler's
  // bounds while it is enabled.
  int32_t node_count() const { return per_zone_; }
  // np.locations: as created or last updated (empty before the create).
  const std::vector<std::string>& locations() const { return config_.locations; }
  // The cluster is regional, so CAPG divides the replicas among the
  // locations: the model takes a block of several `zones` for a region.
  bool regional() const { return opts_.zones.size() > 1; }
  // np.instanceGroupUrls: one group per location, each in its zone(); groups
  // of kept locations keep their place, new ones are appended.
  const std::vector<std::unique_ptr<ManagedInstanceGroup>>& groups() const { return groups_; }

  // Each starts an operation, or fails with FailedPrecondition (Conflict)
  // while another runs, as GKE refuses concurrent operations on a pool.
  Status Create(int32_t per_zone, const NodePoolConfig& config, const GkeAutoscaling& autoscaling);
  Status SetSize(int32_t per_zone);
  // SetNodePoolAutoscaling; InvalidArgument if enabled with min > max.
  Status SetAutoscaling(const GkeAutoscaling& autoscaling);
  // UpdateNodePool: a new version, image type or linuxNodeConfig is a new
  // instance template, onto which the surge steps move every node; new labels
  // or taints are set on the pool's Nodes, resource labels and network tags
  // on its VMs, in place; new locations get groups of node_count() nodes
  // and dropped ones are deleted. The operation ends when the surge steps
  // are done and the dropped locations' groups are gone.
  // Empty `request.locations` keeps the pool's, as the API's empty field does.
  Status Update(const NodePoolConfig& request);
  Status Delete();

 private:
  // How often the simulated GKE control plane steps a surge upgrade, checks
  // that a dropped location's group is gone, or checks a deletion (mpsim
  // choice: GKE's internal cadence is not public).
  static constexpr Duration kTick = 5 * kSecond;

  Status Begin(NodePoolStatus during, const char* op);
  void SetStatus(NodePoolStatus s);
  // One timeline row per config field that changes (version excepted).
  void RecordConfigChange(const NodePoolConfig& to);
  void AfterOperationDelay(std::function<void()> apply);
  // Moves the kept size into the autoscaler's bounds and resizes the groups.
  void ApplyAutoscaling();
  // instanceGroupManagers.insert of `zone`'s group at node_count() nodes.
  void AddGroup(const std::string& zone);
  // Groups for new locations, deletion of the dropped ones' (node_pool_update.cc).
  void Relocate();
  // Ends the update once the surge (if `surge`) is done and the dropped
  // locations' groups are gone, stepping the surge meanwhile.
  void FinishTick(bool surge);
  bool SurgeTick();  // one surge step of every group; true when all are done
  bool SurgeStepOf(ManagedInstanceGroup* g);
  SurgeState StateOf(const ManagedInstanceGroup& g) const;
  void DeleteTick();

  EventLoop* loop_;
  WorkloadCluster* workload_;
  Recorder* rec_;
  std::string pool_;
  MigOptions opts_;  // each zone's group's, and the operations' delay and surge
  uint64_t seed_;    // the groups' random streams
  Rng op_rng_;
  NodePoolStatus status_ = NodePoolStatus::kAbsent;
  bool busy_ = false;  // an operation is running
  NodePoolConfig config_;
  GkeAutoscaling autoscaling_;
  int32_t per_zone_ = 0;
  int32_t initial_node_count_ = 0;
  std::vector<std::unique_ptr<ManagedInstanceGroup>> groups_;
  // Groups of dropped locations: deleting, kept alive for their pending events.
  std::vector<std::unique_ptr<ManagedInstanceGroup>> retired_;
  std::map<std::string, int> groups_made_;  // per zone: a re-added zone gets new names
};

}  // namespace mpsim::mig
