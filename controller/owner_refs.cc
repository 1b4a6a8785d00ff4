#include "controller/owner_refs.h"

#include "controller/capi_names.h"

namespace mpsim {

std::string ApiGroup(const std::string& api_version) {
  size_t slash = api_version.find('/');
  return slash == std::string::npos ? "" : api_version.substr(0, slash);
}

bool ReferSameObject(const OwnerReference& a, const OwnerReference& b) {
  return ApiGroup(a.api_version) == ApiGroup(b.api_version) && a.kind == b.kind && a.name == b.name;
}

void EnsureOwnerRef(std::vector<OwnerReference>* refs, const OwnerReference& ref) {
  for (OwnerReference& r : *refs) {
    if (ReferSameObject(r, ref)) {
      r = ref;
      return;
    }
  }
  refs->push_back(ref);
}

const OwnerReference* GetControllerOf(const ObjectMeta& meta) {
  for (const OwnerReference& r : meta.owner_references) {
    if (r.controller) return &r;
  }
  return nullptr;
}

Status SetControllerReference(ObjectMeta* meta, OwnerReference ref) {
  ref.controller = true;
  const OwnerReference* existing = GetControllerOf(*meta);
  if (existing != nullptr && !ReferSameObject(*existing, ref)) {
    return Status::Invalid("Object " + meta->ns + "/" + meta->name +
                           " is already owned by another " + existing->kind + " controller " +
                           existing->name);
  }
  EnsureOwnerRef(&meta->owner_references, ref);
  return Status::Ok();
}

OwnerReference MachinePoolControllerRef(const ObjectMeta& mp) {
  return {.api_version = capi::kGroupVersion,
          .kind = "MachinePool",
          .name = mp.name,
          .uid = mp.uid,
          .controller = true};
}

}  // namespace mpsim
