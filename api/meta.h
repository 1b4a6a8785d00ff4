// Kubernetes object metadata, references and conditions as plain values. These
// mirror apimachinery's ObjectMeta and Cluster API's condition types.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/time.h"
#include "util/shared_string.h"
#include "util/string_hash.h"
#include "util/string_map.h"

namespace mpsim {

using Labels = StringMap;

// namespace/name; ordered so that maps keyed by it iterate deterministically.
// A borrowed namespace/name: hot cache reads look up by it without copying
// the strings into an ObjectKey.
struct ObjectKeyRef {
  std::string_view ns;
  std::string_view name;
  // HashBytes(name) when the caller has it (SharedString::Hash), else 0.
  uint64_t name_hash = 0;
};

struct ObjectKey {
  std::string ns;
  std::string name;
  auto operator<=>(const ObjectKey&) const = default;
  std::string String() const { return ns.empty() ? name : ns + "/" + name; }
  operator ObjectKeyRef() const { return {ns, name}; }  // NOLINT: implicit by design
};

// For hashed lookups of objects by key (caches); never iterated for output.
// Transparent, so a map keyed by ObjectKey can be searched with an ObjectKeyRef.
struct ObjectKeyHash {
  using is_transparent = void;
  size_t operator()(ObjectKeyRef k) const {
    const size_t h = k.name_hash != 0 ? k.name_hash : HashBytes(k.name);
    return h ^ (HashBytes(k.ns) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
  }
};
struct ObjectKeyEq {
  using is_transparent = void;
  bool operator()(ObjectKeyRef a, ObjectKeyRef b) const { return a.name == b.name && a.ns == b.ns; }
};

struct OwnerReference {
  std::string api_version;
  std::string kind;
  std::string name;
  SharedString uid;
  bool controller = false;
  // While set, a foreground deletion of the owner waits for this dependent
  // (docs/reference/garbage-collection.md §1).
  bool block_owner_deletion = false;
  // Field by field as the default would, without a call to memcmp for the
  // short texts: a MachinePool Machines reconcile compares one per member.
  bool operator==(const OwnerReference& o) const {
    return controller == o.controller && block_owner_deletion == o.block_owner_deletion &&
           uid == o.uid && BytesEqual(name, o.name) && BytesEqual(kind, o.kind) &&
           BytesEqual(api_version, o.api_version);
  }
};

struct ObjectMeta {
  // Set by the API server on create. Shared: the references that name the
  // object (nodeRefs, owner references) copy a count, not 36 bytes.
  SharedString uid;
  // uid and annotations lead: with Node's spec and status before its meta,
  // they share the Node's first lines with the fields every reconcile reads.
  StringMap annotations;
  SharedString name;
  std::string ns;
  Labels labels;
  std::vector<OwnerReference> owner_references;
  std::vector<std::string> finalizers;
  std::optional<Time> deletion_timestamp;
  Time creation_timestamp = 0;
  int64_t generation = 0;         // bumped by the server on spec change only
  uint64_t resource_version = 0;  // bumped by the server on every change
  bool operator==(const ObjectMeta&) const = default;

  ObjectKey Key() const { return {ns, name}; }
};

// A typed reference to another object (bootstrap configRef, infrastructureRef).
struct ObjectReference {
  std::string api_version;  // e.g. infrastructure.cluster.x-k8s.io/v1beta2
  std::string kind;
  std::string ns;
  std::string name;
  bool operator==(const ObjectReference&) const = default;
};

// Both condition flavours: v1beta2 metav1.Condition and v1beta1 clusterv1.Condition
// (the latter adds severity). status is "True", "False" or "Unknown".
struct Condition {
  std::string type;
  std::string status;
  std::string reason;
  std::string message;
  std::string severity;  // v1beta1 only: "", "Error", "Warning", "Info"
  Time last_transition_time = 0;
  int64_t observed_generation = 0;
  bool operator==(const Condition&) const = default;
};

using Conditions = std::vector<Condition>;

// First condition of the given type, or nullptr.
const Condition* FindCondition(const Conditions& cs, const std::string& type);
// Sets (replaces or appends) a condition; keeps last_transition_time when the
// status does not change, as apimachinery's SetStatusCondition does.
void SetCondition(Conditions* cs, Condition c, Time now);
bool IsConditionTrue(const Conditions& cs, const std::string& type);

// The controller owner reference of the given kind (e.g. an InfraMachinePool's
// MachinePool, util.GetOwnerMachinePool), or nullptr.
const OwnerReference* ControllerOwner(const ObjectMeta& m, const std::string& kind);
bool HasFinalizer(const ObjectMeta& m, const std::string& finalizer);

// metav1.DeletionPropagation: what a delete does to the object's dependents
// (docs/reference/garbage-collection.md §2).
enum class DeletionPropagation {
  kBackground,  // the owner goes at once; the garbage collector deletes its dependents after
  kForeground,  // the owner waits (finalizer foregroundDeletion) for its blocking dependents
  kOrphan,      // the owner waits (finalizer orphan) until its dependents drop their references
};
inline constexpr const char* kFinalizerDeleteDependents = "foregroundDeletion";
inline constexpr const char* kFinalizerOrphanDependents = "orphan";

}  // namespace mpsim
