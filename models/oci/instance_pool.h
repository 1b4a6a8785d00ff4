// A simulated OCI compute instance pool (Compute Management API,
// docs/reference/oci-scaleway.md §1.2, §1.4): created from an instance
// configuration at a size, resized and pointed at another configuration by
// UpdateInstancePool, terminated with its instances. A new configuration
// reaches only instances launched afterwards; existing ones are never
// replaced. The pool is PROVISIONING after its create and SCALING after a
// resize until every instance it keeps is RUNNING and the removed ones are
// gone, then RUNNING.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "api/status.h"
#include "models/oci/fleet.h"

namespace mpsim::oci {

// What an instance configuration carries that the model tells apart: the
// kubelet version of its image and the hash of its bootstrap user_data.
struct InstanceConfiguration {
  std::string id;
  std::string version;
  std::string data_hash;
};

enum class InstancePoolState {
  kAbsent,
  kProvisioning,
  kScaling,
  kRunning,
  kTerminating,
  kTerminated
};
// The SDK's enum value, e.g. "RUNNING"; "" for kAbsent.
const char* InstancePoolStateName(InstancePoolState s);

inline constexpr StateWords kInstanceWords = {"Instance", "PROVISIONING", "RUNNING", "TERMINATING",
                                              "TERMINATED"};

class InstancePool {
 public:
  InstancePool(EventLoop* loop, WorkloadCluster* workload, Recorder* rec, std::string pool,
               FleetOptions opts, uint64_t seed);
  InstancePool(const InstancePool&) = delete;
  InstancePool& operator=(const InstancePool&) = delete;

  InstancePoolState state() const { return state_; }
  const std::string& ocid() const { return ocid_; }
  int32_t size() const { return size_; }
  const std::string& instance_configuration_id() const { return config_id_; }

  // CreateInstanceConfiguration: a new configuration, returned with its OCID.
  InstanceConfiguration CreateInstanceConfiguration(const std::string& version,
                                                    const std::string& data_hash);
  // GetInstanceConfiguration; nullptr if there is none of that id.
  const InstanceConfiguration* GetInstanceConfiguration(const std::string& id) const;
  // CreateInstancePool at `size` from configuration `config_id`.
  Status Create(int32_t size, const std::string& config_id);
  // UpdateInstancePool: the new size and configuration.
  Status Update(int32_t size, const std::string& config_id);
  // TerminateInstancePool: every instance terminates, then the pool is TERMINATED.
  Status Terminate();
  // ListInstancePoolInstances: the instances not yet TERMINATED, oldest first.
  Fleet& instances() { return fleet_; }

 private:
  void Resize();
  // Moves the pool's state on once its instances are where it asked.
  void Settle();
  void SetState(InstancePoolState s);

  EventLoop* loop_;
  Recorder* rec_;
  std::string pool_;
  Fleet fleet_;
  InstancePoolState state_ = InstancePoolState::kAbsent;
  std::string ocid_;
  int32_t size_ = 0;
  std::string config_id_;
  std::map<std::string, InstanceConfiguration> configs_;
};

}  // namespace mpsim::oci
