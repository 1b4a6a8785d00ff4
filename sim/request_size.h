// What one write of an object sends etcd, worked out from the object's
// fields as kube-apiserver stores a custom resource, compact JSON, without
// making the JSON (docs/reference/capi-core.md §1.15). etcd refuses a
// request over its --max-request-bytes; the API server passes the refusal on.
#pragma once

#include <cstdint>

#include "api/objects.h"

namespace mpsim {

// etcd's answer to a request over the limit, as the controller reads it
// (docs/reference/capi-core.md §1.15).
inline constexpr const char* kRequestTooLarge = "etcdserver: request is too large";

// A MachinePool's JSON apart from the entries of its two lists that grow
// with the pool, with etcd's request around it (the key, the transaction):
// metadata with managedFields, spec.template, the v1beta2 and v1beta1
// conditions. An estimate (docs/reference/capi-core.md §1.15).
inline constexpr uint64_t kMachinePoolFixedBytes = 8192;
// A uid as Kubernetes writes one, an RFC 4122 UUID of 36 characters: the
// simulator's own uids are shorter.
inline constexpr uint64_t kUidBytes = 36;

// One spec.providerIDList entry: the quoted string and its comma.
uint64_t ProviderIDEntryBytes(const SharedString& id);
// One status.nodeRefs entry, an ObjectReference with apiVersion, kind, name
// and uid set (getNodeReferences), and its comma.
uint64_t NodeRefEntryBytes(const NodeReference& ref);

// The bytes etcd is sent to store `obj`, or 0 for a kind whose objects do
// not grow with a pool (they never reach a limit). `stored` is the version
// the write replaces (nullptr on create): entries both share are not read.
template <class T>
uint64_t RequestBytes(const T& obj, const T* stored) {
  (void)obj;
  (void)stored;
  return 0;
}
uint64_t RequestBytes(const MachinePool& mp, const MachinePool* stored);

}  // namespace mpsim
