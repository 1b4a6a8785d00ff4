// A scenario's pods and cluster autoscaler: built only when the scenario has
// pod events or an `autoscaler:` block, so that other runs are untouched.
#pragma once

#include <memory>
#include <string>

#include "api/objects.h"
#include "autoscaler/cluster_autoscaler.h"
#include "scenario/scenario.pb.h"
#include "sim/api_server.h"
#include "sim/event_loop.h"
#include "sim/pod_scheduler.h"
#include "sim/proto/pod_waits.pb.h"
#include "sim/proto/summary.pb.h"
#include "sim/recorder.h"
#include "sim/workload_cluster.h"

namespace mpsim {

// Whether the scenario has pods: pod events, or an autoscaler.
bool HasPods(const proto::ScenarioSpec& spec);

// What each Node of `pool` offers (its nodeResources; validation parsed them).
Resources NodeAllocatable(const proto::MachinePoolSpec& pool);

// The pods and their scheduler; Nodes offer their pool's nodeResources.
std::unique_ptr<PodScheduler> MakePodScheduler(const proto::ScenarioSpec& spec, EventLoop* loop,
                                               WorkloadCluster* workload, Recorder* rec);

// The autoscaler the spec's `autoscaler:` block describes.
std::unique_ptr<autoscaler::ClusterAutoscaler> MakeAutoscaler(const proto::ScenarioSpec& spec,
                                                              EventLoop* loop, ApiServer* mgmt,
                                                              ApiServer* workload,
                                                              PodScheduler* pods, Recorder* rec,
                                                              const std::string& ns, uint64_t seed);

// A pool with `autoscaling:` is a node group: the annotations a user puts on
// its MachinePool, min and max size and the template node's capacity.
void AnnotateNodeGroup(const proto::MachinePoolSpec& pool, MachinePool* mp);

// summary.json's `pods`, and each pool's `autoscaler` when one ran.
void FillAutoscalingSummary(const PodScheduler& pods, const autoscaler::ClusterAutoscaler* ca,
                            proto::RunSummary* out);

// pod_waits.json: each pool's slowest pod and what its node waited for, from
// the scheduler's record and the run's rows; the pods still pending.
proto::PodWaits PodWaitsOfRun(const proto::ScenarioSpec& spec, const PodScheduler& pods,
                              const Recorder& rec);

}  // namespace mpsim
