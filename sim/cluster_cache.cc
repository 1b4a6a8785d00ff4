#include "sim/cluster_cache.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace mpsim {

// A cache whose server answers when it is made stands for a manager that was
// running before the run began: it is connected already.
ClusterCache::ClusterCache(EventLoop* loop, std::function<bool()> answers,
                           std::function<void()> on_change)
    : loop_(loop), answers_(std::move(answers)), on_change_(std::move(on_change)) {
  connected_ = answers_();
}

ClusterCache::~ClusterCache() {
  if (has_pending_) loop_->Cancel(pending_);
}

void ClusterCache::Start() {
  if (started_) return;
  started_ = true;
  if (!connected_) return Reconcile();
  // Connected from the start: the probes keep the rhythm of this first
  // reconcile. While they would all succeed, none is scheduled.
  last_probe_ = loop_->Now();
}

void ClusterCache::ServerChanged() {
  if (!started_ || !connected_) return;  // a disconnected cache retries anyway
  RequeueAt(NextProbe());
}

// The next probe on the 10 s rhythm from the last one, not before now.
Time ClusterCache::NextProbe() const {
  const Time now = loop_->Now();
  if (now <= last_probe_) return last_probe_;
  const Time periods = (now - last_probe_ + kHealthProbeInterval - 1) / kHealthProbeInterval;
  return last_probe_ + periods * kHealthProbeInterval;
}

// clusterCache.Reconcile (cluster_cache.go:456-565): connect when not
// connected and 30 s have passed since the last failed attempt (a failed
// attempt counts as a failed probe); probe when connected and the last probe
// is 10 s old, disconnecting at the fifth failure in a row; report a connect
// or a disconnect; requeue for the earliest next attempt or probe.
void ClusterCache::Reconcile() {
  const Time now = loop_->Now();
  const bool was_connected = connected_;
  Time requeue = std::numeric_limits<Time>::max();
  if (!connected_) {
    if (last_connect_error_ >= 0 && now - last_connect_error_ < kConnectionCreationRetryInterval) {
      requeue = last_connect_error_ + kConnectionCreationRetryInterval;
    } else if (Connect()) {
      connected_ = true;
    } else {
      requeue = now + kConnectionCreationRetryInterval;
    }
  }
  if (connected_) {
    if (now - last_probe_ < kHealthProbeInterval) {
      requeue = std::min(requeue, last_probe_ + kHealthProbeInterval);
    } else if (Probe()) {
      requeue = now + kHealthProbeInterval;
    } else {
      connected_ = false;  // the threshold was met (:531-537)
      requeue = now + kConnectionCreationRetryInterval;
    }
  }
  if (connected_ != was_connected) on_change_();
  // Connected and healthy: every probe would succeed until the server stops
  // answering, and ServerChanged picks their rhythm up from there.
  if (connected_ && failures_ == 0 && answers_()) return;
  RequeueAt(requeue);
}

// clusterAccessor.Connect (cluster_accessor.go:242-298): true when the
// server answers; a failure is remembered and counts as a failed probe.
bool ClusterCache::Connect() {
  const Time now = loop_->Now();
  last_probe_ = now;
  if (answers_()) {
    failures_ = 0;
    return true;
  }
  last_connect_error_ = now;
  ++failures_;
  return false;
}

// clusterAccessor.HealthCheck (cluster_accessor.go:327-376): false once the
// failures in a row reach the threshold.
bool ClusterCache::Probe() {
  last_probe_ = loop_->Now();
  if (answers_()) {
    failures_ = 0;
  } else {
    ++failures_;
  }
  return failures_ < kHealthProbeFailureThreshold;
}

// As a work queue's AddAfter: an earlier time replaces a later one.
void ClusterCache::RequeueAt(Time t) {
  t = std::max(t, loop_->Now());
  if (has_pending_) {
    if (pending_at_ <= t) return;
    loop_->Cancel(pending_);
  }
  has_pending_ = true;
  pending_at_ = t;
  pending_ = loop_->At(t, [this] {
    has_pending_ = false;
    Reconcile();
  });
}

}  // namespace mpsim
