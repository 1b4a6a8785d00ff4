// The contract between a controller and the runtime that drives it: a
// Reconcile entry point and the watches that enqueue requests, mirroring
// controller-runtime's Reconciler and builder.
#pragma once

#include <functional>
#include <vector>

#include "api/client.h"
#include "api/time.h"

namespace mpsim {

struct Request {
  ObjectKey key;
  auto operator<=>(const Request&) const = default;
};

// ctrl.Result: requeue_after 0 means none.
struct Result {
  bool requeue = false;
  Duration requeue_after = 0;
  // Not in ctrl.Result: the pass is not over but blocked inside itself (a
  // client-side waiter polling a remote operation). Its worker stays held and
  // the same reconciler is called again for the same request after hold_for;
  // the last call's answer is the pass's. 0: the pass ends now. Ignored on
  // error.
  Duration hold_for = 0;
  bool operator==(const Result&) const = default;
};

template <class T>
struct WatchEvent {
  enum class Type { kAdded, kModified, kDeleted };
  Type type;
  const T* old;  // previous cached state on kModified, else nullptr
  const T& obj;  // new state (last state on kDeleted)
};

// Maps a watch event to the requests it should enqueue (an empty list is fine).
template <class T>
using MapFunc = std::function<std::vector<Request>(const WatchEvent<T>&)>;

// What SetupWithManager declares. Each call adds one watch; the runtime
// delivers every event of that kind from the controller's cache.
class Builder {
 public:
  virtual ~Builder() = default;
  virtual void WatchClusters(MapFunc<Cluster> f) = 0;
  virtual void WatchMachinePools(MapFunc<MachinePool> f) = 0;
  virtual void WatchBootstrapConfigs(MapFunc<BootstrapConfig> f) = 0;
  virtual void WatchInfraMachinePools(MapFunc<InfraMachinePool> f) = 0;
  virtual void WatchMachines(MapFunc<Machine> f) = 0;
  virtual void WatchInfraMachines(MapFunc<InfraMachine> f) = 0;
  // Effective only for clusters passed to Client::WatchWorkloadNodes.
  virtual void WatchWorkloadNodes(MapFunc<Node> f) = 0;
  // ClusterCache.GetClusterSource: a generic event carrying the Cluster each
  // time its workload cluster connects or disconnects. Optional to implement.
  virtual void WatchClusterConnections(MapFunc<Cluster> f) { (void)f; }
};

class Reconciler {
 public:
  virtual ~Reconciler() = default;
  // Declares the controller's watches (SetupWithManager).
  virtual void Setup(Builder* b) = 0;
  // One pass for one object. An error means "retry with backoff"; then the
  // result is ignored, as in controller-runtime.
  virtual Status Reconcile(const Request& req, Result* result) = 0;
};

}  // namespace mpsim
