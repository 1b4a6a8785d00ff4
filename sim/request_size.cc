#include "sim/request_size.h"

#include <string_view>

namespace mpsim {
namespace {

// The JSON text around a nodeRef's four values: {"apiVersion":"","kind":"",
// "name":"","uid":""}, and the comma after it.
constexpr uint64_t kNodeRefFrame =
    std::string_view(R"({"apiVersion":"","kind":"","name":"","uid":""},)").size();

// Entries that share their buffers have the same size (TotalFrom's rule).
struct SameId {
  bool operator()(const SharedString& a, const SharedString& b) const {
    return a.identity() == b.identity();
  }
};
struct SameRef {
  bool operator()(const NodeReference& a, const NodeReference& b) const {
    return a.name.identity() == b.name.identity() &&
           a.api_version.identity() == b.api_version.identity() &&
           a.kind.identity() == b.kind.identity();
  }
};
struct IdBytes {
  uint64_t operator()(const SharedString& id) const { return ProviderIDEntryBytes(id); }
};
struct RefBytes {
  uint64_t operator()(const NodeReference& r) const { return NodeRefEntryBytes(r); }
};

uint64_t IdsBytes(const MachinePool& mp, const MachinePool* stored) {
  if (!mp.spec.provider_id_list) return 0;
  const ProviderIDList& ids = *mp.spec.provider_id_list;
  if (stored == nullptr || !stored->spec.provider_id_list) return ids.Total(IdBytes());
  return ids.TotalFrom(*stored->spec.provider_id_list, IdBytes(), SameId());
}

uint64_t RefsBytes(const MachinePool& mp, const MachinePool* stored) {
  const SharedList<NodeReference>& refs = mp.status.node_refs;
  if (stored == nullptr) return refs.Total(RefBytes());
  return refs.TotalFrom(stored->status.node_refs, RefBytes(), SameRef());
}

}  // namespace

// Provider IDs hold no character that JSON escapes.
uint64_t ProviderIDEntryBytes(const SharedString& id) { return id.size() + 3; }

uint64_t NodeRefEntryBytes(const NodeReference& ref) {
  return kNodeRefFrame + ref.api_version.size() + ref.kind.size() + ref.name.size() + kUidBytes;
}

uint64_t RequestBytes(const MachinePool& mp, const MachinePool* stored) {
  return kMachinePoolFixedBytes + IdsBytes(mp, stored) + RefsBytes(mp, stored);
}

}  // namespace mpsim
