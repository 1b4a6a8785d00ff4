// What one pool's `provider.mig` block says, in the model's own types: the
// Managed Instance Group's zone, capacity, delays, faults, update policy and
// the project's API quota, or the GKE node pool that owns such groups.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "api/objects.h"
#include "models/mig/gke_config_text.h"
#include "models/mig/mig.pb.h"
#include "models/mig/surge_upgrade.h"
#include "models/mig/update_policy.h"
#include "sim/distribution.h"

namespace mpsim::mig {

// NodePool.autoscaling (docs/reference/providers.md §3.6.2): GKE keeps each zone's node
// count within [min_node_count, max_node_count] while enabled.
struct GkeAutoscaling {
  bool enabled = false;
  int32_t min_node_count = 0;
  int32_t max_node_count = 1000;
  bool operator==(const GkeAutoscaling&) const = default;
};

struct MigOptions {
  std::vector<std::string> zones;
  std::map<std::string, int32_t> capacity;  // zone -> VMs available; absent: unlimited
  DistSpec launch_delay;                    // VM insert -> RUNNING
  DistSpec delete_delay;                    // DELETING -> gone
  DistSpec reaction_delay;                  // resize -> CREATING
  DistSpec stockout_retry;                  // failed create -> next attempt
  double stockout_probability = 0;
  double malformed_url_probability = 0;  // a VM's self link CAPG cannot parse
  bool preemptible = false;              // stopped 24 h after it started
  double preemption_probability = 0;     // per instance-hour of running
  // Where in the launch delay the VM turns from PROVISIONING to STAGING.
  double staging_fraction = 0.5;
  // The autohealing health check's initial delay: a new VM is VERIFYING for
  // this long after RUNNING. Absent: no health check (CAPG attaches none).
  std::optional<DistSpec> autohealing_initial_delay;
  int32_t api_requests_per_minute = 1500;
  std::string project = "mpsim-project";
  UpdatePolicy update;  // applied when the instance template changes
  // Instance names and random streams; empty: the pool's name. GKE runs one
  // group per zone of a pool, and each needs its own.
  std::string base_instance_name;
  bool gke = false;                    // a GKE node pool, not a plain MIG
  DistSpec node_pool_operation_delay;  // GKE: operation accepted -> change applied
  UpgradeSettings upgrade;             // GKE: surge settings of a version change
  GkeAutoscaling autoscaling;          // GKE: as created; edits come from the InfraMachinePool
  std::string image_type = "COS_CONTAINERD";  // GKE: the nodes' image type
  Labels kubernetes_labels;                   // GKE: the nodes' Kubernetes labels
  std::vector<Taint> kubernetes_taints;       // GKE: the nodes' taints, in order
  ResourceLabels resource_labels;             // GKE: the VMs' GCE labels
  std::vector<std::string> network_tags;      // GKE: the VMs' network tags, in order
  Sysctls linux_sysctls;                      // GKE: linuxNodeConfig.sysctls
  std::string linux_cgroup_mode;              // GKE: linuxNodeConfig.cgroupMode; "" unspecified
  // GKE: spec.nodeLocations, in order; empty when unset (the locations are
  // then `zones`). `zones` stays the cluster's: more than one is a regional
  // cluster, and `capacity` names only its zones (other zones: unlimited).
  std::vector<std::string> node_locations;
  // GKE: SetNodePoolSize also sets initialNodeCount (unverified, docs/reference/providers.md §5).
  bool initial_node_count_follows_size = true;
};

MigOptions ToMigOptions(const proto::MigProvider& p);

}  // namespace mpsim::mig
