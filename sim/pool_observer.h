// Watches the API servers without lag (as an omniscient observer, not a
// controller) and turns MachinePool and InfraMachinePool changes into
// timeline rows and the per-pool metrics of summary.json. A pool's
// upToDateReplicas row counts the Nodes its status.nodeRefs name whose
// kubelet version equals its spec version, whenever that count changes (a
// nodeRef, the spec version, or a referenced Node's version or existence).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "sim/api_server.h"
#include "sim/recorder.h"
#include "util/string_hash.h"

namespace mpsim {

struct PoolRecord {
  std::string name;
  std::string provider;
  std::vector<std::pair<std::string, Time>> phases;  // (phase, time)
  std::vector<Duration> matching_latencies;
  Time last_spec_change = 0;            // replicas/version change, creation included
  std::optional<Time> converged_since;  // status matched spec from then on
  bool deleted = false;
  // Last observed state.
  int32_t desired = 0;
  std::string version;
  int32_t ready = 0;
  int32_t available = 0;
  // v1beta2 status.readyReplicas and availableReplicas, as last shown (pools
  // with MachinePool Machines only).
  int32_t machines_ready = 0;
  int32_t machines_available = 0;
  std::string phase;
  int32_t node_refs = 0;
  // Nodes named in status.nodeRefs whose kubelet version is `version` (as last shown).
  int32_t up_to_date = 0;
  // Nodes on a version other than the desired one (status.versions), if any.
  std::string stale_versions;
  std::vector<std::string> unmatched_ids;  // infra providerIDs with no nodeRef at the end
};

class PoolObserver {
 public:
  PoolObserver(ApiServer* mgmt, ApiServer* workload, Recorder* rec);
  PoolObserver(const PoolObserver&) = delete;
  PoolObserver& operator=(const PoolObserver&) = delete;

  // Declares a pool before it is created: its InfraMachinePool name and provider.
  void Track(const std::string& pool, const std::string& infra_name, const std::string& provider);
  // Final unmatched providerIDs are computed here.
  void Finish();
  const std::map<std::string, PoolRecord>& pools() const { return pools_; }

 private:
  struct IdSeen {
    Time first = 0;        // first time in the infra list
    bool matched = false;  // its matching latency was recorded
  };
  struct Tracking {
    // The last versions seen, shared with the objects (copies are O(1)):
    // Finish reads them, where sets kept in step cost a search per change.
    SharedList<NodeReference> refs;           // status.nodeRefs
    std::optional<ProviderIDList> infra_ids;  // the InfraMachinePool's list
    // providerID -> when it was first listed; looked up, never iterated.
    std::unordered_map<std::string, IdSeen, StringHash, StringEq> id_seen;
    std::string version;     // the spec version up_to_date counts against
    int32_t up_to_date = 0;  // kept as refs, versions and Nodes change
  };
  // A Node some pool's status.nodeRefs names.
  struct Referenced {
    std::string pool;
    SharedString version;  // its kubelet version
    bool exists = false;   // the Node exists (it may be deleted before its nodeRef goes)
  };
  static bool UpToDate(const Referenced& r, const Tracking& t) {
    return r.exists && r.version == t.version;
  }
  void OnPool(const MachinePool* old, const MachinePool& mp, bool deleted);
  void OnInfra(const InfraMachinePool* old, const InfraMachinePool& imp);
  void OnMachine(WatchEvent<Machine>::Type t, const Machine* old, const Machine& m);
  void OnNode(const Node& node, bool deleted);
  void DiffNodeRefs(const MachinePool* old, const MachinePool& mp, PoolRecord* rec, Tracking* t);
  void Reference(const std::string& pool, std::string_view node_name, const Node* node,
                 Tracking* t);
  void Unreference(std::string_view node_name);
  void SetDesiredVersion(const std::string& version, Tracking* t);
  void ShowUpToDate(const std::string& pool, const Tracking& t, PoolRecord* rec);
  void UpdateConvergence(const MachinePool& mp, PoolRecord* rec);
  void RecordMachineCounters(const MachinePool& mp, PoolRecord* rec);
  Time Now() const { return mgmt_->clock()->Now(); }

  ApiServer* mgmt_;
  ApiServer* workload_;
  Recorder* rec_;
  std::map<std::string, PoolRecord> pools_;
  std::map<std::string, Tracking> tracking_;
  std::map<std::string, std::string> infra_to_pool_;
  // Node name -> who references it; looked up, never iterated.
  std::unordered_map<std::string, Referenced, StringHash, StringEq> referenced_;
};

}  // namespace mpsim
