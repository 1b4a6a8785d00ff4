// Owner-reference helpers with the upstream matching rule: two references
// point at the same object when API group, kind and name are equal
// (util.EnsureOwnerRef, controllerutil.SetControllerReference).
#pragma once

#include <string>
#include <vector>

#include "api/meta.h"
#include "api/status.h"

namespace mpsim {

// The API group of an apiVersion ("cluster.x-k8s.io/v1beta2" -> "cluster.x-k8s.io", "v1" -> "").
std::string ApiGroup(const std::string& api_version);
bool ReferSameObject(const OwnerReference& a, const OwnerReference& b);

// Replaces the reference to the same object, else appends it.
void EnsureOwnerRef(std::vector<OwnerReference>* refs, const OwnerReference& ref);

// The controller reference, or nullptr.
const OwnerReference* GetControllerOf(const ObjectMeta& meta);

// Upserts `ref` (controller=true); Invalid if another object already controls `meta`.
Status SetControllerReference(ObjectMeta* meta, OwnerReference ref);

// The controller reference a MachinePool puts on the objects it owns.
OwnerReference MachinePoolControllerRef(const ObjectMeta& mp);

}  // namespace mpsim
