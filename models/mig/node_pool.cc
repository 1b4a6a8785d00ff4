#include "models/mig/node_pool.h"

#include <algorithm>

namespace mpsim::mig {
namespace {

// "1..3" per zone, or "off": the autoscaling column of the timeline.
std::string BoundsText(const GkeAutoscaling& a) {
  if (!a.enabled) return "off";
  return std::to_string(a.min_node_count) + ".." + std::to_string(a.max_node_count);
}

}  // namespace

NodePoolConfig BlockConfig(const MigOptions& o) {
  NodePoolConfig c;
  c.image_type = o.image_type;
  c.labels = o.kubernetes_labels;
  c.taints = o.kubernetes_taints;
  c.resource_labels = o.resource_labels;
  c.network_tags = o.network_tags;
  c.sysctls = o.linux_sysctls;
  c.cgroup_mode = o.linux_cgroup_mode;
  // CAPG sends spec.nodeLocations only when set; GKE then uses the cluster's
  // zones, which `zones` stands for.
  c.locations = o.node_locations.empty() ? o.zones : o.node_locations;
  return c;
}

bool RecreatesNodes(const NodePoolConfig& from, const NodePoolConfig& to) {
  return from.version != to.version || from.image_type != to.image_type ||
         from.sysctls != to.sysctls || from.cgroup_mode != to.cgroup_mode;
}

const char* NodePoolStatusName(NodePoolStatus s) {
  switch (s) {
    case NodePoolStatus::kAbsent:
      return "";
    case NodePoolStatus::kProvisioning:
      return "PROVISIONING";
    case NodePoolStatus::kRunning:
      return "RUNNING";
    case NodePoolStatus::kReconciling:
      return "RECONCILING";
    case NodePoolStatus::kStopping:
      return "STOPPING";
  }
  return "UNKNOWN";
}

NodePool::NodePool(EventLoop* loop, WorkloadCluster* workload, Recorder* rec, std::string pool,
                   MigOptions opts, uint64_t seed)
    : loop_(loop),
      workload_(workload),
      rec_(rec),
      pool_(std::move(pool)),
      opts_(std::move(opts)),
      seed_(seed),
      op_rng_(StreamFor(seed, "gke/" + pool_ + "/operations")) {}

// GKE names instances gke-<cluster>-<pool>-<hash>-<suffix>, one hash per
// zone's group; the zone stands in for the hash here, with a count after it
// when a zone gets a group again (a new group, so a new hash).
void NodePool::AddGroup(const std::string& zone) {
  const int made = ++groups_made_[zone];
  MigOptions m = opts_;
  m.base_instance_name = "gke-" + pool_ + "-" + zone + (made > 1 ? "-" + std::to_string(made) : "");
  m.update.proactive = false;  // GKE replaces nodes itself, by surge steps
  groups_.push_back(
      std::make_unique<ManagedInstanceGroup>(loop_, workload_, rec_, pool_, std::move(m), seed_));
  groups_.back()->Insert(zone, per_zone_, config_.version);
}

Status NodePool::Begin(NodePoolStatus during, const char* op) {
  if (busy_) {
    return Status::Conflict(std::string("rpc error: code = FailedPrecondition desc = ") + op +
                            ": another operation is in progress on node pool " + pool_);
  }
  busy_ = true;
  SetStatus(during);
  return Status::Ok();
}

void NodePool::SetStatus(NodePoolStatus s) {
  rec_->Change(loop_->Now(), "NodePool", pool_, "status", NodePoolStatusName(status_),
               NodePoolStatusName(s), pool_);
  status_ = s;
}

void NodePool::AfterOperationDelay(std::function<void()> apply) {
  loop_->After(Sample(opts_.node_pool_operation_delay, op_rng_), std::move(apply));
}

// The create operation is DONE once the groups exist with their target size;
// the VMs come up afterwards (GKE's own wait for registration is not modelled).
Status NodePool::Create(int32_t per_zone, const NodePoolConfig& config,
                        const GkeAutoscaling& autoscaling) {
  if (status_ != NodePoolStatus::kAbsent) return Status::AlreadyExists("node pool " + pool_);
  if (Status s = Begin(NodePoolStatus::kProvisioning, "CreateNodePool"); !s.ok()) return s;
  config_ = config;
  // The kubelets register with the pool's labels and taints.
  workload_->SetPoolNodeConfig(pool_, config_.labels, config_.taints);
  autoscaling_ = autoscaling;
  per_zone_ = autoscaling.enabled
                  ? std::clamp(per_zone, autoscaling.min_node_count,
                               std::max(autoscaling.min_node_count, autoscaling.max_node_count))
                  : per_zone;
  initial_node_count_ = per_zone;
  AfterOperationDelay([this] {
    // A pool created again after a delete starts with new groups.
    for (auto& g : groups_) retired_.push_back(std::move(g));
    groups_.clear();
    for (const std::string& zone : config_.locations) AddGroup(zone);
    busy_ = false;
    SetStatus(NodePoolStatus::kRunning);
  });
  return Status::Ok();
}

Status NodePool::SetSize(int32_t per_zone) {
  if (status_ == NodePoolStatus::kAbsent) return Status::NotFound("node pool " + pool_);
  if (Status s = Begin(NodePoolStatus::kReconciling, "SetNodePoolSize"); !s.ok()) return s;
  per_zone_ = per_zone;
  // docs/reference/providers.md §3.6.2 caveat: if GKE kept the created initialNodeCount,
  // CAPG's size check would differ again and call SetNodePoolSize again.
  if (opts_.initial_node_count_follows_size) initial_node_count_ = per_zone;
  AfterOperationDelay([this] {
    for (const auto& g : groups_) g->Resize(per_zone_);
    busy_ = false;
    SetStatus(NodePoolStatus::kRunning);
  });
  return Status::Ok();
}

// SetNodePoolAutoscaling is an operation like the others (assumed: the
// Container API returns one, and docs/reference/providers.md §3.6.2 has CAPG requeue after it).
Status NodePool::SetAutoscaling(const GkeAutoscaling& autoscaling) {
  if (status_ == NodePoolStatus::kAbsent) return Status::NotFound("node pool " + pool_);
  if (autoscaling.enabled && autoscaling.min_node_count > autoscaling.max_node_count) {
    return Status::Invalid("rpc error: code = InvalidArgument desc = autoscaling minNodeCount " +
                           std::to_string(autoscaling.min_node_count) + " is above maxNodeCount " +
                           std::to_string(autoscaling.max_node_count));
  }
  if (Status s = Begin(NodePoolStatus::kReconciling, "SetNodePoolAutoscaling"); !s.ok()) return s;
  rec_->Change(loop_->Now(), "NodePool", pool_, "autoscaling", BoundsText(autoscaling_),
               BoundsText(autoscaling), pool_);
  autoscaling_ = autoscaling;
  AfterOperationDelay([this] {
    ApplyAutoscaling();
    busy_ = false;
    SetStatus(NodePoolStatus::kRunning);
  });
  return Status::Ok();
}

// GKE's autoscaler resizes for pending pods and idle nodes, which mpsim does
// not model; what remains is that each zone's count stays within the bounds.
void NodePool::ApplyAutoscaling() {
  if (!autoscaling_.enabled) return;
  const int32_t n = std::clamp(per_zone_, autoscaling_.min_node_count, autoscaling_.max_node_count);
  if (n == per_zone_) return;
  per_zone_ = n;
  for (const auto& g : groups_) g->Resize(per_zone_);
}

Status NodePool::Delete() {
  if (status_ == NodePoolStatus::kAbsent) return Status::NotFound("node pool " + pool_);
  if (status_ == NodePoolStatus::kStopping) return Status::Ok();
  if (Status s = Begin(NodePoolStatus::kStopping, "DeleteNodePool"); !s.ok()) return s;
  AfterOperationDelay([this] {
    for (const auto& g : groups_) {
      if (g->exists()) g->Delete();
    }
    DeleteTick();
  });
  return Status::Ok();
}

void NodePool::DeleteTick() {
  for (const auto& g : groups_) {
    if (g->exists()) {
      loop_->After(kTick, [this] { DeleteTick(); });
      return;
    }
  }
  busy_ = false;
  SetStatus(NodePoolStatus::kAbsent);
}

}  // namespace mpsim::mig
