// A stand-in for the kubeadm bootstrap provider (CABPK): each bootstrap config
// gets its data secret after a sampled delay, and its join token is rotated.
#pragma once

#include <cstdint>
#include <string>

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

// The data secret CABPK's storeBootstrapData writes for `cfg`: named after the
// config and controlled by it, its `value` the cloud-config that joins a node
// with cfg's join token, so every rotation changes the value and nothing else.
Secret BootstrapDataSecret(const BootstrapConfig& cfg);
// The join token a rotation writes in place of `token` ("token-N" -> "token-N+1").
std::string NextJoinToken(const std::string& token);

class BootstrapProvider {
 public:
  // Watches `server`, readies every BootstrapConfig created there (its data
  // secret created, then its status), then rotates its join token every
  // `token_rotation`, rewriting the data secret; each rotation is a
  // `BootstrapConfig <name> tokenRotations` row of `rec`.
  BootstrapProvider(EventLoop* loop, ApiServer* server, Recorder* rec, BootstrapOptions opts);
  BootstrapProvider(const BootstrapProvider&) = delete;
  BootstrapProvider& operator=(const BootstrapProvider&) = delete;

 private:
  void MakeReady(const ObjectKey& key);
  void ScheduleRotation(const ObjectKey& key);
  void Rotate(const ObjectKey& key);
  // storeBootstrapData: creates the data secret, or updates it if it exists.
  void StoreBootstrapData(const BootstrapConfig& cfg);
  bool OwnerHasNodeRefs(const BootstrapConfig& cfg) const;

  EventLoop* loop_;
  ApiServer* server_;
  Recorder* rec_;
  BootstrapOptions opts_;
  Rng rng_;
};

}  // namespace mpsim
