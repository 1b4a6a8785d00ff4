// What `mpsim calibrate` and `mpsim import` keep of each dump: one row per
// Node, per cloud instance and per MachinePool, with times in microseconds
// since the Unix epoch.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mpsim::calibrate {

// A Node of `kubectl get nodes -o json`.
struct NodeRow {
  std::string file;  // the dump it came from, for messages
  std::string name;
  int64_t created = 0;           // metadata.creationTimestamp
  std::string provider_id;       // spec.providerID; empty when unset
  std::optional<int64_t> ready;  // the Ready condition's lastTransitionTime, when status is True
  // The managedFields entry that owns spec.providerID: who set it and when
  // that manager last wrote the Node's spec. Absent when no entry names it.
  std::string provider_id_manager;
  std::optional<int64_t> provider_id_time;
};

// An instance of a cloud's listing.
struct InstanceRow {
  std::string file;
  std::string name;                // the cloud's id or name, for messages
  std::string provider_id;         // the providerID its Node would carry
  int64_t launched = 0;            // LaunchTime, timeCreated or creationTimestamp
  std::vector<std::string> zones;  // where the listing names them
};

// A MachinePool of `kubectl get machinepools.cluster.x-k8s.io -A -o json`.
struct MachinePoolRow {
  std::string file;
  std::string at;  // its JSON path in the file, e.g. "$.items[2]"
  std::string ns;  // metadata.namespace
  std::string name;
  std::optional<int32_t> replicas;        // spec.replicas
  std::string version;                    // spec.template.spec.version; empty when unset
  std::string infra_kind;                 // spec.template.spec.infrastructureRef.kind
  std::vector<std::string> provider_ids;  // spec.providerIDList
};

// Every row read from the files given, in file order then item order.
struct Dumps {
  std::vector<NodeRow> nodes;
  std::vector<InstanceRow> instances;
  std::vector<MachinePoolRow> pools;
};

}  // namespace mpsim::calibrate
