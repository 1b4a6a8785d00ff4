// The workload cluster's side of a machine's life: the kubelet registers a
// Node after the instance boots, the Node turns Ready, the kubelet or the
// cloud-controller-manager sets spec.providerID (possibly wrong, late or
// never: injected faults), and the node-lifecycle controller removes Nodes
// whose instance is gone. Cloud-agnostic: the cloud models supply providerIDs.
#pragma once

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/api_server.h"
#include "sim/distribution.h"
#include "sim/event_loop.h"
#include "sim/random.h"
#include "sim/recorder.h"
#include "util/string_hash.h"

namespace mpsim {

struct WorkloadOptions {
  DistSpec node_registration;           // instance running -> Node created
  DistSpec node_ready;                  // Node created -> Ready=True
  bool provider_id_by_kubelet = false;  // else the cloud-controller-manager sets it
  DistSpec ccm_delay;                   // Node created -> providerID set by the CCM
  double p_case_mismatch = 0;
  double p_missing = 0;
  double p_wrong_format = 0;
  double p_late = 0;
  DistSpec late_delay;
  Duration node_monitor_grace_period = 40 * kSecond;
};

// The taint kubeadm puts on nodes that Cluster API has not yet adopted
// (removed by the MachinePool controller's patchNodes).
inline constexpr const char* kUninitializedTaint = "node.cluster.x-k8s.io/uninitialized";
// The taint of kubelets run with --cloud-provider=external, removed by the CCM.
inline constexpr const char* kCloudUninitializedTaint =
    "node.cloudprovider.kubernetes.io/uninitialized";

class WorkloadCluster {
 public:
  WorkloadCluster(EventLoop* loop, ApiServer* server, Recorder* recorder, WorkloadOptions opts,
                  uint64_t seed);
  WorkloadCluster(const WorkloadCluster&) = delete;
  WorkloadCluster& operator=(const WorkloadCluster&) = delete;

  // A cloud reports that `instance` of `pool` runs and its OS is booting.
  void InstanceBooted(const std::string& pool, const std::string& instance,
                      SharedString provider_id, const std::string& kubelet_version);
  // A cloud reports that `instance` no longer exists.
  void InstanceGone(const std::string& instance);
  // The Kubernetes labels and taints of `pool`'s nodes: each kubelet that
  // registers afterwards takes them (--node-labels, --register-with-taints),
  // and the pool's existing Nodes get them in place, in lieu of those of the
  // previous call (a managed platform updating a node pool's config).
  void SetPoolNodeConfig(const std::string& pool, const Labels& labels,
                         const std::vector<Taint>& taints);

  ApiServer* server() const { return server_; }
  // The pool whose instance registered Node `node`; "" if none did.
  std::string PoolOfNode(const std::string& node) const;
  size_t nodes() const { return server_->Store<Node>().size(); }

  // The perturbations the faults apply, exposed for tests.
  static std::string ToggleCase(const std::string& provider_id);
  static std::string WrongFormat(const std::string& provider_id);

 private:
  struct Machine {
    std::string pool;
    SharedString provider_id;
    std::string version;
    bool gone = false;
    uint64_t boot = 0;  // which boot of a VM name this is (recreated VMs keep their name)
  };
  struct NodeConfig {
    Labels labels;
    std::vector<Taint> taints;
  };
  void Register(const std::string& instance);
  // Swaps `from`'s labels and taints on `node` for `to`'s; false if none changed.
  static bool Reconfigure(Node* node, const NodeConfig& from, const NodeConfig& to);
  void SetProviderID(const std::string& instance, const SharedString& id, bool clear_ccm_taint);
  void MarkReady(const std::string& instance);
  void RemoveNode(const std::string& instance, uint64_t boot);
  // *was: the kubelet version of the Node it re-registered, else empty.
  bool CreateOrReRegister(Node* node, std::string* was);
  SharedString FaultyProviderID(const Machine& m, const std::string& instance);

  EventLoop* loop_;
  ApiServer* server_;
  Recorder* rec_;
  WorkloadOptions opts_;
  Rng registration_rng_, ready_rng_, ccm_rng_, fault_rng_;
  // Hashed: every Node event looks its VM up here, and at 100,000 VMs a
  // tree's walk of name compares was a visible share of a run. Iterated
  // only in sorted order (SetPoolNodeConfig).
  std::unordered_map<std::string, Machine, StringHash, StringEq> machines_;
  // node name -> its pool, for the timeline
  std::unordered_map<std::string, std::string, StringHash, StringEq> node_pool_;
  std::map<std::string, NodeConfig> node_config_;  // pool -> its nodes' labels and taints
};

}  // namespace mpsim
