// The field indexes Cluster API registers on the manager's cache
// (internal/index: index.AddDefaultIndexes), so a List can select by field
// without scanning: which values of an object each index holds.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/objects.h"
#include "util/shared_string.h"

namespace mpsim {

// index/machinepool.go MachinePoolNodeNameField and MachinePoolProviderIDField.
inline constexpr const char* kMachinePoolNodeNameField = "status.nodeRefs.name";
inline constexpr const char* kMachinePoolProviderIDField = "spec.providerIDList";

// The indexed fields of a kind and each object's values under one of them;
// kinds with no index have none.
// Values point into the object, valid while it lives. Same() is a cheap
// test that a write left the field's source alone.
template <class T>
struct FieldIndexes {
  static std::vector<std::string> Fields() { return {}; }
  static void Values(const T&, const std::string&, std::vector<const SharedString*>*) {}
  static bool Same(const T&, const T&, const std::string&) { return true; }
  // True when the values are known to be strictly sorted (a hint: false is
  // always correct).
  static bool Sorted(const T&, const std::string&) { return false; }
};

// The nodeName index's values, appended to out: each nodeRef's name, in list
// order. The pool observer's diff of a MachinePool write reads the same.
inline void AppendNodeRefNames(const SharedList<NodeReference>& refs,
                               std::vector<const SharedString*>* out) {
  out->reserve(out->size() + refs.size());
  for (const NodeReference& r : refs) out->push_back(&r.name);
}

template <>
struct FieldIndexes<MachinePool> {
  static std::vector<std::string> Fields() {
    return {kMachinePoolNodeNameField, kMachinePoolProviderIDField};
  }
  static bool Same(const MachinePool& a, const MachinePool& b, const std::string& field) {
    if (field == kMachinePoolNodeNameField) return a.status.node_refs == b.status.node_refs;
    return a.spec.provider_id_list == b.spec.provider_id_list;
  }
  // Skipping empty entries keeps a sorted list sorted.
  static bool Sorted(const MachinePool& mp, const std::string& field) {
    if (field == kMachinePoolNodeNameField) return NamesStrictlySorted(mp.status.node_refs);
    return !mp.spec.provider_id_list || IdsStrictlySorted(*mp.spec.provider_id_list);
  }
  static void Values(const MachinePool& mp, const std::string& field,
                     std::vector<const SharedString*>* out) {
    if (field == kMachinePoolNodeNameField) {
      AppendNodeRefNames(mp.status.node_refs, out);
    } else if (field == kMachinePoolProviderIDField && mp.spec.provider_id_list) {
      // machinePoolByProviderID skips empty entries.
      out->reserve(mp.spec.provider_id_list->size());
      for (const SharedString& id : *mp.spec.provider_id_list) {
        if (!id.empty()) out->push_back(&id);
      }
    }
  }
};

// index/machine.go MachineNodeNameField and MachineProviderIDField, which
// index.AddDefaultIndexes registers on Cluster API's manager: the Machine
// controller's nodeToMachine lists by them.
inline constexpr const char* kMachineNodeNameField = "status.nodeRef.name";
inline constexpr const char* kMachineProviderIDField = "spec.providerID";

template <>
struct FieldIndexes<Machine> {
  static std::vector<std::string> Fields() {
    return {kMachineNodeNameField, kMachineProviderIDField};
  }
  static bool Same(const Machine& a, const Machine& b, const std::string& field) {
    if (field == kMachineNodeNameField) return a.status.node_ref == b.status.node_ref;
    return a.spec.provider_id == b.spec.provider_id;
  }
  static bool Sorted(const Machine&, const std::string&) { return true; }
  static void Values(const Machine& m, const std::string& field,
                     std::vector<const SharedString*>* out) {
    if (field == kMachineNodeNameField) {
      if (m.status.node_ref && !m.status.node_ref->name.empty())
        out->push_back(&m.status.node_ref->name);
    } else if (m.spec.provider_id && !m.spec.provider_id->empty()) {
      out->push_back(&*m.spec.provider_id);
    }
  }
};

// index/node.go NodeProviderIDField: Cluster API's main.go registers it on the
// ClusterCache's workload Node caches (docs/reference/capi-core.md §2.1).
inline constexpr const char* kNodeProviderIDField = "spec.providerID";

// A Node's one value is its providerID, if set.
template <>
struct FieldIndexes<Node> {
  static std::vector<std::string> Fields() { return {kNodeProviderIDField}; }
  static bool Same(const Node& a, const Node& b, const std::string&) {
    return a.spec.provider_id == b.spec.provider_id;
  }
  static bool Sorted(const Node&, const std::string&) { return true; }
  static void Values(const Node& node, const std::string&, std::vector<const SharedString*>* out) {
    if (!node.spec.provider_id.empty()) out->push_back(&node.spec.provider_id);
  }
};

}  // namespace mpsim
