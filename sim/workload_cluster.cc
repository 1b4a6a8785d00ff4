#include "sim/workload_cluster.h"

#include <algorithm>
#include <cctype>
#include <utility>

namespace mpsim {
namespace {

// The pressure conditions a healthy kubelet reports, and their reasons
// (kubernetes pkg/kubelet/nodestatus/setters.go MemoryPressureCondition,
// DiskPressureCondition, PIDPressureCondition).
constexpr std::pair<const char*, const char*> kPressureConditions[] = {
    {"MemoryPressure", "KubeletHasSufficientMemory"},
    {"DiskPressure", "KubeletHasNoDiskPressure"},
    {"PIDPressure", "KubeletHasSufficientPID"},
};

}  // namespace

WorkloadCluster::WorkloadCluster(EventLoop* loop, ApiServer* server, Recorder* recorder,
                                 WorkloadOptions opts, uint64_t seed)
    : loop_(loop),
      server_(server),
      rec_(recorder),
      opts_(std::move(opts)),
      registration_rng_(StreamFor(seed, "workload/registration")),
      ready_rng_(StreamFor(seed, "workload/ready")),
      ccm_rng_(StreamFor(seed, "workload/ccm")),
      fault_rng_(StreamFor(seed, "workload/providerid-faults")) {
  // Every Node deletion goes on the timeline, whoever deletes it: the
  // node-lifecycle controller here, or the MachinePool controller.
  server_->Store<Node>().Watch([this](WatchEvent<Node>::Type type, const auto&, const auto& node) {
    if (type != WatchEvent<Node>::Type::kDeleted) return;
    auto it = node_pool_.find(node->meta.name);
    const std::string pool = it == node_pool_.end() ? "" : it->second;
    rec_->Change(loop_->Now(), "Node", node->meta.name, "deleted", "false", "true", pool);
  });
}

void WorkloadCluster::InstanceBooted(const std::string& pool, const std::string& instance,
                                     SharedString provider_id, const std::string& kubelet_version) {
  auto [it, fresh] = machines_.try_emplace(instance);
  const uint64_t boot = fresh ? 0 : it->second.boot + 1;
  it->second = Machine{pool, std::move(provider_id), kubelet_version, false, boot};
  node_pool_[instance] = pool;
  loop_->After(Sample(opts_.node_registration, registration_rng_),
               [this, instance] { Register(instance); });
}

void WorkloadCluster::InstanceGone(const std::string& instance) {
  auto it = machines_.find(instance);
  if (it == machines_.end() || it->second.gone) return;
  it->second.gone = true;
  // The node-lifecycle controller notices after the monitor grace period
  // (--node-monitor-grace-period; docs/reference/providers.md §0.1) and deletes the Node.
  const uint64_t boot = it->second.boot;
  loop_->After(opts_.node_monitor_grace_period,
               [this, instance, boot] { RemoveNode(instance, boot); });
}

std::string WorkloadCluster::PoolOfNode(const std::string& node) const {
  auto it = node_pool_.find(node);
  return it == node_pool_.end() ? "" : it->second;
}

void WorkloadCluster::SetPoolNodeConfig(const std::string& pool, const Labels& labels,
                                        const std::vector<Taint>& taints) {
  NodeConfig& config = node_config_[pool];
  const NodeConfig to{labels, taints};
  std::vector<std::string> instances;  // in name order, as patches reach the timeline
  for (const auto& [instance, m] : machines_) {
    if (m.pool == pool && !m.gone) instances.push_back(instance);
  }
  std::sort(instances.begin(), instances.end());
  for (const std::string& instance : instances) {
    Node node;
    if (!server_->Store<Node>().Get({"", instance}, &node).ok()) continue;
    if (Reconfigure(&node, config, to)) server_->Store<Node>().Patch(&node);
  }
  config = to;
}

bool WorkloadCluster::Reconfigure(Node* node, const NodeConfig& from, const NodeConfig& to) {
  const Node before = *node;
  for (const auto& [key, value] : from.labels) node->meta.labels.erase(key);
  for (const auto& [key, value] : to.labels) node->meta.labels[key] = value;
  auto same = [](const Taint& a, const Taint& b) { return a.key == b.key && a.effect == b.effect; };
  for (const Taint& t : from.taints) {
    std::erase_if(node->spec.taints, [&](const Taint& x) { return same(x, t); });
  }
  for (const Taint& t : to.taints) {
    std::erase_if(node->spec.taints, [&](const Taint& x) { return same(x, t); });
    node->spec.taints.push_back(t);
  }
  return !(*node == before);
}

// kubeadm join registers the Node tainted uninitialized (CABPK); with
// --cloud-provider=external it also carries the CCM's taint and no providerID.
void WorkloadCluster::Register(const std::string& instance) {
  // An instance gone before its kubelet registered never gets a Node (its
  // entry may be gone too, once the node-lifecycle controller has run).
  auto it = machines_.find(instance);
  if (it == machines_.end() || it->second.gone) return;
  const Machine& m = it->second;
  Node node;
  node.meta.name = instance;
  node.spec.taints.push_back({kUninitializedTaint, "", "NoSchedule"});
  if (!opts_.provider_id_by_kubelet) {
    node.spec.taints.push_back({kCloudUninitializedTaint, "true", "NoSchedule"});
  }
  node.status.node_info.kubelet_version = SharedString::Interned(m.version);
  if (auto c = node_config_.find(m.pool); c != node_config_.end()) {
    Reconfigure(&node, {}, c->second);
  }
  node.status.conditions.push_back({.type = "Ready",
                                    .status = "False",
                                    .reason = "KubeletNotReady",
                                    .last_transition_time = loop_->Now()});
  // The kubelet reports its pressure conditions with Ready
  // (docs/reference/capi-core.md §4.1); the Machine controller's NodeHealthy
  // reads them.
  for (const auto& [type, reason] : kPressureConditions) {
    node.status.conditions.push_back(
        {.type = type, .status = "False", .reason = reason, .last_transition_time = loop_->Now()});
  }
  SharedString id = FaultyProviderID(m, instance);
  if (opts_.provider_id_by_kubelet && !id.empty()) node.spec.provider_id = id;
  std::string was;
  if (!CreateOrReRegister(&node, &was)) return;
  rec_->Change(loop_->Now(), "Node", instance, "registered", "false", "true", m.pool);
  rec_->Change(loop_->Now(), "Node", instance, "kubeletVersion", was,
               node.status.node_info.kubelet_version, m.pool);
  if (!node.spec.provider_id.empty()) {
    rec_->Change(loop_->Now(), "Node", instance, "providerID", "", id, m.pool);
  } else if (!opts_.provider_id_by_kubelet && !id.empty()) {
    Duration d = Sample(opts_.ccm_delay, ccm_rng_);
    loop_->After(d, [this, instance, id] { SetProviderID(instance, id, true); });
  }
  loop_->After(Sample(opts_.node_ready, ready_rng_), [this, instance] { MarkReady(instance); });
}

// Decides this node's providerID faults; "" means it is never set.
SharedString WorkloadCluster::FaultyProviderID(const Machine& m, const std::string& instance) {
  const std::string& pool = m.pool;
  if (fault_rng_.Bernoulli(opts_.p_missing)) {
    rec_->Fault(loop_->Now(), pool, instance, "providerID.missing");
    return "";
  }
  SharedString id = m.provider_id;  // unfaulted, the Node shares the cloud's buffer
  if (fault_rng_.Bernoulli(opts_.p_case_mismatch)) {
    id = ToggleCase(id);
    rec_->Fault(loop_->Now(), pool, instance, "providerID.caseMismatch");
  }
  if (fault_rng_.Bernoulli(opts_.p_wrong_format)) {
    id = WrongFormat(id);
    rec_->Fault(loop_->Now(), pool, instance, "providerID.wrongFormat");
  }
  if (fault_rng_.Bernoulli(opts_.p_late)) {
    rec_->Fault(loop_->Now(), pool, instance, "providerID.late");
    Duration d = Sample(opts_.late_delay, fault_rng_);
    loop_->After(
        d, [this, instance, id] { SetProviderID(instance, id, !opts_.provider_id_by_kubelet); });
    return "";
  }
  return id;
}

void WorkloadCluster::SetProviderID(const std::string& instance, const SharedString& id,
                                    bool clear_ccm_taint) {
  Node node;
  if (!server_->Store<Node>().Get({"", instance}, &node).ok()) return;
  std::string before = node.spec.provider_id;
  node.spec.provider_id = id;
  if (clear_ccm_taint) {
    std::erase_if(node.spec.taints,
                  [](const Taint& t) { return t.key == kCloudUninitializedTaint; });
  }
  if (!server_->Store<Node>().Patch(&node).ok()) return;
  rec_->Change(loop_->Now(), "Node", instance, "providerID", before, id, node_pool_[instance]);
}

void WorkloadCluster::MarkReady(const std::string& instance) {
  Node node;
  if (!server_->Store<Node>().Get({"", instance}, &node).ok()) return;
  SetCondition(&node.status.conditions,
               {.type = "Ready", .status = "True", .reason = "KubeletReady"}, loop_->Now());
  if (!server_->Store<Node>().Patch(&node).ok()) return;
  rec_->Change(loop_->Now(), "Node", instance, "Ready", "False", "True", node_pool_[instance]);
}

// A VM recreated under its name (a group that recreates a preempted VM) re-registers the
// same Node object if the node-lifecycle controller has not deleted it yet,
// as a kubelet does; the Node keeps its UID.
bool WorkloadCluster::CreateOrReRegister(Node* node, std::string* was) {
  was->clear();
  Status s = server_->Store<Node>().Create(node);
  if (!s.IsAlreadyExists()) return s.ok();
  Node existing;
  if (!server_->Store<Node>().Get(node->meta.Key(), &existing).ok()) return false;
  *was = existing.status.node_info.kubelet_version;
  // The kubelet keeps a providerID already set (by itself or the CCM).
  const SharedString provider_id = existing.spec.provider_id;
  existing.spec = node->spec;
  for (const auto& [key, value] : node->meta.labels) existing.meta.labels[key] = value;
  if (existing.spec.provider_id.empty()) existing.spec.provider_id = provider_id;
  existing.status = node->status;
  return server_->Store<Node>().Patch(&existing).ok();
}

// Only the boot that went away: a VM recreated under the same name since
// then is running again and keeps its Node.
void WorkloadCluster::RemoveNode(const std::string& instance, uint64_t boot) {
  auto it = machines_.find(instance);
  if (it != machines_.end() && it->second.boot != boot) return;
  machines_.erase(instance);
  (void)server_->Store<Node>().Delete({"", instance});  // NotFound: already deleted
}

// Some clouds treat parts of a providerID as case-insensitive while Cluster
// API compares providerIDs byte for byte (docs/reference/capi-core.md §2.8):
// flip the case of the part after the scheme.
std::string WorkloadCluster::ToggleCase(const std::string& provider_id) {
  std::string out = provider_id;
  size_t start = out.find("://");
  start = start == std::string::npos ? 0 : start + 3;
  bool has_upper = false;
  for (size_t i = start; i < out.size(); ++i)
    has_upper |= std::isupper(static_cast<unsigned char>(out[i])) != 0;
  for (size_t i = start; i < out.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(out[i]);
    out[i] = static_cast<char>(has_upper ? std::tolower(c) : std::toupper(c));
  }
  return out;
}

// scheme:///zone/id vs scheme://zone/id (cluster-api #7278): add or drop the third
// slash after the scheme.
std::string WorkloadCluster::WrongFormat(const std::string& provider_id) {
  size_t p = provider_id.find("://");
  if (p == std::string::npos) return provider_id + "/";
  std::string rest = provider_id.substr(p + 3);
  std::string scheme = provider_id.substr(0, p + 3);
  if (!rest.empty() && rest[0] == '/') return scheme + rest.substr(1);
  return scheme + "/" + rest;
}

}  // namespace mpsim
