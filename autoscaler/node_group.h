// The cluster autoscaler's clusterapi cloud provider, as much of it as the
// autoscaler's loop reads: node groups are MachinePools that carry the
// min-size and max-size annotations, their target size is spec.replicas,
// their Nodes are those whose providerID is in spec.providerIDList, and the
// template node of a group comes from its capacity annotations
// (docs/reference/autoscaler.md §6).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/api_server.h"
#include "sim/pod_scheduler.h"

namespace mpsim::autoscaler {

inline constexpr const char* kMinSizeAnnotation =
    "cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size";
inline constexpr const char* kMaxSizeAnnotation =
    "cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size";
inline constexpr const char* kCpuCapacityAnnotation =
    "capacity.cluster-autoscaler.kubernetes.io/cpu";
inline constexpr const char* kMemoryCapacityAnnotation =
    "capacity.cluster-autoscaler.kubernetes.io/memory";
inline constexpr const char* kMaxPodsAnnotation =
    "capacity.cluster-autoscaler.kubernetes.io/maxPods";

struct NodeGroup {
  std::string name;  // the MachinePool's
  int32_t min = 0;
  int32_t max = 0;
  int32_t target = 0;              // spec.replicas
  int32_t instances = 0;           // entries of spec.providerIDList: the group's instances
  Resources node_template;         // what one new node offers
  std::vector<std::string> nodes;  // registered Nodes of the group, in name order
};

// Every MachinePool of `ns` with both size annotations, in name order, with
// its registered Nodes. A pool whose annotations do not parse is no group
// (the provider skips it with a log line upstream).
std::vector<NodeGroup> ListNodeGroups(ApiServer* mgmt, ApiServer* workload, const std::string& ns);

// Sets the group's MachinePool spec.replicas (the scale subresource).
void SetTargetSize(ApiServer* mgmt, const std::string& ns, const std::string& group, int32_t size);

// DeleteNodes for one node of a MachinePool group, as cluster-autoscaler
// 1.36 does it (docs/reference/autoscaler.md §6.6): the node's Machine gets
// the delete-machine annotation and the pool's replicas go down by one; a
// node without a Machine fails the call ("unknown machine", autoscaler#9681)
// and *error says so.
bool DeleteNode(ApiServer* mgmt, ApiServer* workload, const std::string& ns,
                const std::string& group, const std::string& node, std::string* error);

}  // namespace mpsim::autoscaler
