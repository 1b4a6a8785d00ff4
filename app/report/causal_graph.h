// The causal graph of one pool's convergence, built from the timeline:
// moments, each with the causes it waited for, of which it keeps the last.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "sim/recorder.h"

namespace mpsim {

enum class MomentKind {
  kStart,           // the spec change the pool converges from (an event applied)
  kProvisioning,    // the MachinePool entered phase Provisioning (bootstrap data ready)
  kRequested,       // the cloud accepted an instance request (MIG currentAction CREATING)
  kCreated,         // instance created (Pending, PROVISIONING, Launching, Creating)
  kRunning,         // instance running (InService, RUNNING, Running, Succeeded)
  kFailed,          // the cloud gave up on the instance
  kDeleting,        // instance deletion started
  kGone,            // instance deleted
  kRegistered,      // Node object created by the kubelet
  kProviderIdSet,   // Node spec.providerID set
  kNodeReady,       // Node Ready condition True
  kNodeDeleted,     // Node object deleted
  kListed,          // providerID added to the InfraMachinePool's providerIDList
  kUnlisted,        // providerID removed from it
  kNodeRefAdded,    // Node matched into MachinePool status.nodeRefs
  kNodeRefRemoved,  // Node dropped from status.nodeRefs
  kFault,           // an injected fault or a cloud/API error (capacity, throttling, kill)
  kEnd,             // convergence, or the end of the run when the pool never converged
};
inline constexpr size_t kMomentKinds = static_cast<size_t>(MomentKind::kEnd) + 1;

// The texts are views of the timeline rows the graph was built from (and of
// the pool name it was given): they stay valid while those do. A graph of a
// 10,000-replica run has ~60,000 moments, and copying their texts was most
// of the time it took to build.
struct Moment {
  Time time = 0;
  MomentKind kind = MomentKind::kStart;
  std::string_view name;  // instance or Node name (one name for both), zone for zone faults
  std::string_view from;  // a state change's old state; empty otherwise
  std::string_view to;    // its new state, or the fault kind, providerID, phase

  std::string object() const { return std::string(name); }
  // "Pending -> InService" for a state change, else `to`.
  std::string detail() const {
    return from.empty() ? std::string(to) : std::string(from) + " -> " + std::string(to);
  }
};

// Moments are numbered in timeline order, so every cause has a lower id.
using MomentId = size_t;

class CausalGraph {
 public:
  // The graph of `pool`'s rows in [start, end]; `end` becomes the kEnd vertex.
  // Vertices are added in timeline order, so ids are a topological order.
  CausalGraph(const TimelineRows& rows, const std::string& pool, Time start, Time end);
  // The same from the pool's own rows (Recorder::RowsOf), in timeline order.
  CausalGraph(const std::vector<const TimelineRow*>& pool_rows, const std::string& pool, Time start,
              Time end);

  MomentId start() const { return start_; }
  MomentId end() const { return end_; }
  const Moment& moment(MomentId v) const { return moments_[v]; }
  size_t size() const { return moments_.size(); }
  // The cause v waited for last: the latest of its causes (on a tie, the one
  // later in the timeline). REQUIRES: v != start().
  MomentId BindingCause(MomentId v) const { return binding_[v]; }
  // The moments of `pool`'s Fault rows in (from, to], for words about a wait.
  std::vector<const Moment*> FaultsBetween(Time from, Time to) const;

 private:
  class Builder;
  std::vector<Moment> moments_;  // vertex v is moments_[v]
  // The critical path reads one cause per moment, so that is all the graph
  // keeps: each link settles at once whether it is the moment's latest.
  std::vector<MomentId> binding_;
  MomentId start_ = 0;
  MomentId end_ = 0;
};

}  // namespace mpsim
