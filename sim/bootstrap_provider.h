// A stand-in for the kubeadm bootstrap provider (CABPK): each bootstrap config
// gets its data secret after a sampled delay. Not a cloud; part of the world.
#pragma once

#include "sim/api_server.h"
#include "sim/distribution.h"
#include "sim/event_loop.h"
#include "sim/random.h"

namespace mpsim {

class BootstrapProvider {
 public:
  // Watches `server` and readies every BootstrapConfig created there.
  BootstrapProvider(EventLoop* loop, ApiServer* server, DistSpec delay, uint64_t seed);
  BootstrapProvider(const BootstrapProvider&) = delete;
  BootstrapProvider& operator=(const BootstrapProvider&) = delete;

 private:
  void MakeReady(const ObjectKey& key);

  EventLoop* loop_;
  ApiServer* server_;
  DistSpec delay_;
  Rng rng_;
};

}  // namespace mpsim
