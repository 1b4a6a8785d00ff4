// A stand-in for the kubeadm bootstrap provider (CABPK): each bootstrap config
// gets its data secret after a sampled delay, and its join token is rotated.
#pragma once

#include <cstdint>

#include "sim/api_server.h"
#include "sim/distribution.h"
#include "sim/event_loop.h"
#include "sim/random.h"
#include "sim/recorder.h"

namespace mpsim {

struct BootstrapOptions {
  DistSpec delay;           // config created -> data secret ready
  Duration token_rotation;  // 0: the join token is never rotated
  uint64_t seed = 1;
};

class BootstrapProvider {
 public:
  // Watches `server`, readies every BootstrapConfig created there, then
  // rotates its join token every `token_rotation`; each rotation is a
  // `BootstrapConfig <name> tokenRotations` row of `rec`.
  BootstrapProvider(EventLoop* loop, ApiServer* server, Recorder* rec, BootstrapOptions opts);
  BootstrapProvider(const BootstrapProvider&) = delete;
  BootstrapProvider& operator=(const BootstrapProvider&) = delete;

 private:
  void MakeReady(const ObjectKey& key);
  void ScheduleRotation(const ObjectKey& key);
  void Rotate(const ObjectKey& key);
  bool OwnerHasNodeRefs(const BootstrapConfig& cfg) const;

  EventLoop* loop_;
  ApiServer* server_;
  Recorder* rec_;
  BootstrapOptions opts_;
  Rng rng_;
};

}  // namespace mpsim
