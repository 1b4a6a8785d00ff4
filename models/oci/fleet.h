// The compute instances one OCI pool owns, which an instance pool and an OKE
// node pool both run on: each is placed in the availability domain with the
// fewest of the pool's instances that has room, waits there for capacity
// when none has (docs/reference/oci-scaleway.md §6.2), boots after the launch
// delay and is gone after the delete delay. The owning pool names the states
// and hears of every change.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "api/objects.h"
#include "sim/distribution.h"
#include "sim/event_loop.h"
#include "sim/random.h"
#include "sim/recorder.h"
#include "sim/workload_cluster.h"

namespace mpsim::oci {

// The block keys every OCI pool shares.
struct FleetOptions {
  std::vector<std::string> zones;           // availability domains, in placement order
  std::map<std::string, int32_t> capacity;  // per domain; absent: unlimited
  DistSpec launch_delay;
  DistSpec delete_delay;
  std::string region = "iad";
  std::string provider_id_prefix;  // "oci://", or "" for bare OCIDs
};

// The SDK words of the owner for its members' states, for the timeline.
struct StateWords {
  const char* kind;       // timeline object kind: "Instance", which the reports read
  const char* launching;  // PROVISIONING / CREATING
  const char* up;         // RUNNING / ACTIVE
  const char* going;      // TERMINATING / DELETING
  const char* gone;       // TERMINATED / DELETED
};

class Fleet {
 public:
  enum class Phase { kLaunching, kUp, kGoing };
  struct Member {
    std::string name;  // display name, the Node's name: inst-<5 random>-<pool>
    std::string ocid;
    SharedString provider_id;
    std::string version;  // of the configuration it was launched from
    std::string domain;   // "" while it waits for capacity
    Phase phase = Phase::kLaunching;
    bool waited = false;  // ran out of capacity once (one fault row)
  };

  Fleet(EventLoop* loop, WorkloadCluster* workload, Recorder* rec, std::string pool,
        FleetOptions opts, uint64_t seed, StateWords words, std::function<void()> on_change);
  Fleet(const Fleet&) = delete;
  Fleet& operator=(const Fleet&) = delete;

  // A new member from a configuration of `version`; returns its launch number.
  uint64_t Launch(const std::string& version);
  // Starts terminating member `seq` unless it is already going.
  void Terminate(uint64_t seq);

  // Every member not yet gone, by launch number (oldest first).
  const std::map<uint64_t, Member>& members() const { return members_; }
  int32_t live() const { return live_; }  // not going
  int32_t up() const { return up_; }      // up, not going
  // providerIDs of the up members, oldest first.
  const ProviderIDList& UpIds();
  // `n` live members to remove: balanced across domains, then the oldest
  // first (docs/reference/oci-scaleway.md §1.4 scale-in order).
  std::vector<uint64_t> ScaleInOrder(int32_t n) const;
  const FleetOptions& options() const { return opts_; }
  Rng* id_rng() { return &id_rng_; }

 private:
  // The domain with the fewest members that has room, or "".
  std::string PickDomain() const;
  void Place(uint64_t seq);
  void Boot(uint64_t seq);
  void SetPhase(Member* m, Phase p);
  void Count(const Member& m, int32_t delta);
  std::string NewName();

  EventLoop* loop_;
  WorkloadCluster* workload_;
  Recorder* rec_;
  std::string pool_;
  FleetOptions opts_;
  StateWords words_;
  std::function<void()> on_change_;
  Rng launch_rng_, delete_rng_, id_rng_;
  uint64_t next_ = 0;
  std::map<uint64_t, Member> members_;
  std::map<std::string, int32_t> per_domain_;  // members holding a place, until gone
  std::vector<uint64_t> waiting_;              // launch order; placed as room frees
  std::set<std::string> names_;                // every name drawn, never reused
  int32_t live_ = 0, up_ = 0;
  ProviderIDList up_ids_;
  bool up_ids_stale_ = true;
};

}  // namespace mpsim::oci
