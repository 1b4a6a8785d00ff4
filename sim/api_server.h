// The simulated Kubernetes API server: one ObjectStore per kind sharing one
// resourceVersion sequence. The management cluster and each workload cluster
// are separate instances, as they are separate API servers in reality.
#pragma once

#include <type_traits>

#include "sim/object_store.h"

namespace mpsim {

class ApiServer {
 public:
  explicit ApiServer(const Clock* clock) : counters_{clock} {}
  ApiServer(const ApiServer&) = delete;
  ApiServer& operator=(const ApiServer&) = delete;

  template <class T>
  ObjectStore<T>& Store() {
    if constexpr (std::is_same_v<T, Cluster>)
      return clusters_;
    else if constexpr (std::is_same_v<T, MachinePool>)
      return machine_pools_;
    else if constexpr (std::is_same_v<T, BootstrapConfig>)
      return bootstrap_configs_;
    else if constexpr (std::is_same_v<T, InfraMachinePool>)
      return infra_machine_pools_;
    else if constexpr (std::is_same_v<T, Machine>)
      return machines_;
    else if constexpr (std::is_same_v<T, InfraMachine>)
      return infra_machines_;
    else if constexpr (std::is_same_v<T, Secret>)
      return secrets_;
    else {
      static_assert(std::is_same_v<T, Node>, "unknown kind");
      return nodes_;
    }
  }
  const ServerCounters& counters() const { return counters_; }
  // Fails controllers' writes as `fault` says (ServerCounters::client_fault).
  void SetClientFault(std::function<Status(const char*, const char*, const ObjectKey&)> fault) {
    counters_.client_fault = std::move(fault);
  }
  const Clock* clock() const { return counters_.clock; }
  // etcd's --max-request-bytes (sim/request_size.h); 0: no limit.
  void SetMaxObjectBytes(uint64_t bytes) { counters_.max_object_bytes = bytes; }

 private:
  ServerCounters counters_;
  ObjectStore<Cluster> clusters_{&counters_};
  ObjectStore<MachinePool> machine_pools_{&counters_};
  ObjectStore<BootstrapConfig> bootstrap_configs_{&counters_};
  ObjectStore<InfraMachinePool> infra_machine_pools_{&counters_};
  ObjectStore<Machine> machines_{&counters_};
  ObjectStore<InfraMachine> infra_machines_{&counters_};
  ObjectStore<Secret> secrets_{&counters_};
  ObjectStore<Node> nodes_{&counters_};
};

}  // namespace mpsim
