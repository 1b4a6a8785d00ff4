#include "models/mig/node_pool.h"

#include <algorithm>

#include "api/gke_config_text.h"
#include "api/node_config_text.h"

namespace mpsim::mig {
namespace {

// How often the simulated GKE control plane steps a surge upgrade or checks a
// deletion (mpsim choice: GKE's internal cadence is not public).
constexpr Duration kTick = 5 * kSecond;

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
      op_rng_(StreamFor(seed, "gke/" + pool_ + "/operations")) {
  // GKE names instances gke-<cluster>-<pool>-<hash>-<suffix>, one hash per
  // zone's group; the zone stands in for the hash here.
  for (const std::string& zone : opts_.zones) {
    MigOptions m = opts_;
    m.base_instance_name = "gke-" + pool_ + "-" + zone;
    m.update.proactive = false;  // GKE replaces nodes itself, by surge steps
    groups_.push_back(
        std::make_unique<ManagedInstanceGroup>(loop, workload, rec, pool_, std::move(m), seed));
  }
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
    for (size_t i = 0; i < groups_.size(); ++i) {
      groups_[i]->Insert(opts_.zones[i], per_zone_, config_.version);
    }
    busy_ = false;
    SetStatus(NodePoolStatus::kRunning);
  });
  return Status::Ok();
}

Status NodePool::SetSize(int32_t per_zone) {
  if (status_ == NodePoolStatus::kAbsent) return Status::NotFound("node pool " + pool_);
  if (Status s = Begin(NodePoolStatus::kReconciling, "SetNodePoolSize"); !s.ok()) return s;
  per_zone_ = per_zone;
  // providers.md §3.6.2 caveat: if GKE kept the created initialNodeCount,
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
// Container API returns one, and providers.md §3.6.2 has CAPG requeue after it).
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

// New VMs take the new version and image from the groups' template; the surge
// steps replace the others (providers.md §3.2, "GKE performs surge upgrades").
// An image-type or linuxNodeConfig change alone is assumed to recreate nodes
// the same way. Labels and taints go onto the running Nodes in place,
// "without re-creating the node pool and disrupting running workloads" (GKE
// docs, "Update Kubernetes node labels and taints for node pools"), and onto
// new ones. Resource labels and network tags live on the VMs, which the model
// does not label: keeping them in config_ is all their in-place change does.
Status NodePool::Update(const NodePoolConfig& config) {
  if (status_ == NodePoolStatus::kAbsent) return Status::NotFound("node pool " + pool_);
  if (Status s = Begin(NodePoolStatus::kReconciling, "UpdateNodePool"); !s.ok()) return s;
  RecordConfigChange(config);
  const bool recreate = RecreatesNodes(config_, config);
  const bool in_place = config.labels != config_.labels || config.taints != config_.taints;
  config_ = config;
  AfterOperationDelay([this, recreate, in_place] {
    if (in_place) workload_->SetPoolNodeConfig(pool_, config_.labels, config_.taints);
    if (recreate) {
      for (const auto& g : groups_) g->SetInstanceTemplate(config_.version);
      UpgradeTick();
      return;
    }
    busy_ = false;
    SetStatus(NodePoolStatus::kRunning);
  });
  return Status::Ok();
}

void NodePool::RecordConfigChange(const NodePoolConfig& to) {
  const auto row = [&](bool changed, const char* field, const std::string& from,
                       const std::string& now_text) {
    if (changed) rec_->Change(loop_->Now(), "NodePool", pool_, field, from, now_text, pool_);
  };
  const NodePoolConfig& was = config_;
  row(to.image_type != was.image_type, "imageType", was.image_type, to.image_type);
  row(to.labels != was.labels, "kubernetesLabels", LabelsText(was.labels), LabelsText(to.labels));
  row(to.taints != was.taints, "kubernetesTaints", TaintsText(was.taints), TaintsText(to.taints));
  row(to.resource_labels != was.resource_labels, "resourceLabels", MapText(was.resource_labels),
      MapText(to.resource_labels));
  row(to.network_tags != was.network_tags, "networkTags", ListText(was.network_tags),
      ListText(to.network_tags));
  row(to.sysctls != was.sysctls, "linuxSysctls", MapText(was.sysctls), MapText(to.sysctls));
  row(to.cgroup_mode != was.cgroup_mode, "linuxCgroupMode", was.cgroup_mode, to.cgroup_mode);
}

// Each zone is stepped on its own with the same settings (whether GKE counts
// maxSurge per zone is not stated in providers.md; assumed per zone).
void NodePool::UpgradeTick() {
  bool done = true;
  for (const auto& g : groups_) {
    SurgeState s = StateOf(*g);
    if (SurgeDone(s)) continue;
    done = false;
    const SurgeStep step = NextSurgeStep(s, opts_.upgrade);
    std::vector<std::string> victims;
    for (const ManagedInstance* mi : g->ListManagedInstances()) {
      if (static_cast<int32_t>(victims.size()) == step.remove_old) break;
      const bool old =
          mi->action != Action::kDeleting && mi->template_version != g->template_version();
      // Not-RUNNING outdated instances first, as the step counts them so.
      if (old && mi->status != VmStatus::kRunning) victims.push_back(mi->name);
    }
    for (const ManagedInstance* mi : g->ListManagedInstances()) {
      if (static_cast<int32_t>(victims.size()) == step.remove_old) break;
      if (mi->action != Action::kDeleting && mi->template_version != g->template_version() &&
          mi->status == VmStatus::kRunning) {
        victims.push_back(mi->name);
      }
    }
    g->DeleteInstances(victims);
    if (step.target != g->target_size()) g->Resize(step.target);
  }
  if (!done) {
    loop_->After(kTick, [this] { UpgradeTick(); });
    return;
  }
  busy_ = false;
  SetStatus(NodePoolStatus::kRunning);
}

SurgeState NodePool::StateOf(const ManagedInstanceGroup& g) const {
  SurgeState s{.size = per_zone_, .target = g.target_size()};
  for (const ManagedInstance* mi : g.ListManagedInstances()) {
    if (mi->action == Action::kDeleting) continue;
    const bool running = mi->status == VmStatus::kRunning;
    const bool old = mi->template_version != g.template_version();
    s.running += running;
    s.old_nodes += old;
    s.old_running += old && running;
  }
  return s;
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
