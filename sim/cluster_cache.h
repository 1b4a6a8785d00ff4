// Cluster API's ClusterCache as one controller manager runs it for one
// workload cluster (docs/reference/capi-core.md §1.14): the connection its
// controllers' workload clients go through, made once the workload API
// server answers and retried every 30 s until then, checked by a probe
// every 10 s and dropped after 5 failed probes. Each connect and disconnect
// is reported, as the cluster source's generic event.
#pragma once

#include <functional>

#include "sim/event_loop.h"

namespace mpsim {

class ClusterCache {
 public:
  // Upstream's constants (docs/reference/capi-core.md §1.14).
  static constexpr Duration kConnectionCreationRetryInterval = 30 * kSecond;
  static constexpr Duration kHealthProbeInterval = 10 * kSecond;
  static constexpr int kHealthProbeFailureThreshold = 5;

  // `answers()`: whether the workload API server answers now (its control
  // plane is up and no partition cuts it off). `on_change` runs at each
  // connect and disconnect, after the state changed.
  ClusterCache(EventLoop* loop, std::function<bool()> answers, std::function<void()> on_change);
  ClusterCache(const ClusterCache&) = delete;
  ClusterCache& operator=(const ClusterCache&) = delete;
  ~ClusterCache();

  // The ClusterCache controller's first reconcile of the Cluster (its cache
  // saw the Cluster): the first connection attempt, or the first probe of a
  // cache that was connected when the run began. Later calls do nothing.
  void Start();
  // The workload API server may have stopped or started answering: a
  // connected cache resumes its probes, on their 10 s rhythm.
  void ServerChanged();
  // Whether its controllers can get a workload client.
  bool Connected() const { return connected_; }

 private:
  void Reconcile();
  bool Connect();
  bool Probe();
  void RequeueAt(Time t);
  Time NextProbe() const;

  EventLoop* loop_;
  std::function<bool()> answers_;
  std::function<void()> on_change_;
  bool started_ = false;
  bool connected_ = false;
  Time last_connect_error_ = -1;  // when connection creation last failed; -1: never
  Time last_probe_ = 0;           // the last probe (a connect counts as one)
  int failures_ = 0;              // consecutive failed probes
  EventId pending_ = 0;           // the scheduled reconcile, if has_pending_
  Time pending_at_ = 0;           // and its time
  bool has_pending_ = false;
};

}  // namespace mpsim
