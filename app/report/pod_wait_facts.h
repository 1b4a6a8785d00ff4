// The facts `--explain` tells of the pods' waits, worked out once after a run
// and kept as pod_waits.json: each pool's slowest pod, when the node it was
// bound to was launched and Ready, and the cluster autoscaler's scale-up that
// asked for that node, all read from the run's timeline rows.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/pod_waits.h"
#include "sim/proto/pod_waits.pb.h"
#include "sim/recorder.h"

namespace mpsim {

// The pods still pending when the run ended.
struct PendingAtEnd {
  uint32_t count = 0;
  std::optional<Time> oldest_since;  // the oldest one's creation
};

// One entry per name of `pools`, in that order. A node's launch is its
// Instance's first row, its Ready the last Node `Ready` row turning True at
// or before the binding, and the scale-up the pool's last `Autoscaler` row
// whose field starts "scaleUp" logged before that launch.
proto::PodWaits PodWaitFacts(const std::vector<std::string>& pools, const SlowestPodWaits& waits,
                             const PendingAtEnd& pending, const Recorder& rec);

// Its name in a run's output directory.
inline constexpr const char* kPodWaitsFile = "pod_waits.json";

// pod_waits.json's text.
std::string PodWaitsJson(const proto::PodWaits& w);

// Reads a pod_waits.json. False with *error naming `file` when it cannot be
// read or is not one.
bool ReadPodWaits(const std::string& file, proto::PodWaits* out, std::string* error);

}  // namespace mpsim
