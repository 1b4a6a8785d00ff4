// UpdateNodePool on a simulated GKE node pool: the config fields set in
// place, the surge steps of a recreating change, and the location change
// that adds and deletes zonal groups.
#include <algorithm>

#include "models/common/node_config_text.h"
#include "models/mig/gke_config_text.h"
#include "models/mig/node_pool.h"

namespace mpsim::mig {
namespace {

bool Contains(const std::vector<std::string>& zones, const std::string& zone) {
  return std::find(zones.begin(), zones.end(), zone) != zones.end();
}

}  // namespace

// New VMs take the new version and image from the groups' template; the surge
// steps replace the others (docs/reference/providers.md §3.2, "GKE performs surge upgrades").
// An image-type or linuxNodeConfig change alone is assumed to recreate nodes
// the same way. Labels and taints go onto the running Nodes in place,
// "without re-creating the node pool and disrupting running workloads" (GKE
// docs, "Update Kubernetes node labels and taints for node pools"), and onto
// new ones. Resource labels and network tags live on the VMs, which the model
// does not label: keeping them in config_ is all their in-place change does.
// New locations get groups at the kept per-zone count and dropped ones lose
// theirs (Relocate); the template changes first, so new groups start on it.
Status NodePool::Update(const NodePoolConfig& request) {
  if (status_ == NodePoolStatus::kAbsent) return Status::NotFound("node pool " + pool_);
  if (Status s = Begin(NodePoolStatus::kReconciling, "UpdateNodePool"); !s.ok()) return s;
  // UpdateNodePoolRequest.locations left empty keeps them, as CAPG sends it
  // when spec.nodeLocations is unset or equal.
  NodePoolConfig config = request;
  if (config.locations.empty()) config.locations = config_.locations;
  RecordConfigChange(config);
  const bool recreate = RecreatesNodes(config_, config);
  const bool in_place = config.labels != config_.labels || config.taints != config_.taints;
  const bool relocate = config.locations != config_.locations;
  config_ = config;
  AfterOperationDelay([this, recreate, in_place, relocate] {
    if (in_place) workload_->SetPoolNodeConfig(pool_, config_.labels, config_.taints);
    if (recreate) {
      for (const auto& g : groups_) g->SetInstanceTemplate(config_.version);
    }
    if (relocate) Relocate();
    if (recreate || relocate) {
      FinishTick(recreate);
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
  row(to.locations != was.locations, "nodeLocations", ListText(was.locations),
      ListText(to.locations));
}

// Groups of kept locations stay where they are in np.instanceGroupUrls and
// new ones are appended (GKE's order is not documented; assumed). A dropped
// location's group is deleted with its VMs, whose Nodes go with them.
void NodePool::Relocate() {
  std::vector<std::unique_ptr<ManagedInstanceGroup>> kept;
  for (auto& g : groups_) {
    if (Contains(config_.locations, g->zone())) {
      kept.push_back(std::move(g));
      continue;
    }
    g->Delete();
    retired_.push_back(std::move(g));
  }
  groups_ = std::move(kept);
  for (const std::string& zone : config_.locations) {
    const bool has = std::any_of(groups_.begin(), groups_.end(),
                                 [&](const auto& g) { return g->zone() == zone; });
    if (!has) AddGroup(zone);
  }
}

// The update is done when every group's surge is (if the nodes are recreated)
// and the dropped locations' groups are gone.
void NodePool::FinishTick(bool surge) {
  const bool surged = !surge || SurgeTick();
  const bool retired =
      std::none_of(retired_.begin(), retired_.end(), [](const auto& g) { return g->exists(); });
  if (!surged || !retired) {
    loop_->After(kTick, [this, surge] { FinishTick(surge); });
    return;
  }
  busy_ = false;
  SetStatus(NodePoolStatus::kRunning);
}

// Each zone is stepped on its own with the same settings (whether GKE counts
// maxSurge per zone is not stated in docs/reference/providers.md; assumed per zone).
bool NodePool::SurgeTick() {
  bool done = true;
  for (const auto& g : groups_) done = SurgeStepOf(g.get()) && done;
  return done;
}

bool NodePool::SurgeStepOf(ManagedInstanceGroup* g) {
  SurgeState s = StateOf(*g);
  if (SurgeDone(s)) return true;
  const SurgeStep step = NextSurgeStep(s, opts_.upgrade);
  std::vector<std::string> victims;
  const auto outdated = [g](const ManagedInstance* mi) {
    return mi->action != Action::kDeleting && mi->template_version != g->template_version();
  };
  // Not-RUNNING outdated instances first, as the step counts them so.
  for (const bool running : {false, true}) {
    for (const ManagedInstance* mi : g->ListManagedInstances()) {
      if (static_cast<int32_t>(victims.size()) == step.remove_old) break;
      if (outdated(mi) && (mi->status == VmStatus::kRunning) == running) {
        victims.push_back(mi->name);
      }
    }
  }
  g->DeleteInstances(victims);
  if (step.target != g->target_size()) g->Resize(step.target);
  return false;
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

}  // namespace mpsim::mig
