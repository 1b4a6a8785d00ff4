// The merge patch Cluster API's patch helper sends (util/patch: a JSON merge
// patch computed from the object as read and as modified): only what the
// writer changed lands on the server, so a patch built from a stale cache
// copy never reverts fields that others wrote meanwhile.
#pragma once

#include "api/objects.h"

namespace mpsim {

// Applies to `cur` (the server's object) the changes from `base` (what the
// writer read) to `mine` (what it wants). Maps merge per key; conditions
// merge per type (as the patch helper's conditions handling does); other
// fields are replaced whole when the writer changed them. Identity and
// lifecycle fields (uid, resourceVersion, generation, timestamps) are the
// server's and never patched.
void ApplyMergePatch(const Cluster& base, const Cluster& mine, Cluster* cur);
void ApplyMergePatch(const MachinePool& base, const MachinePool& mine, MachinePool* cur);
void ApplyMergePatch(const BootstrapConfig& base, const BootstrapConfig& mine,
                     BootstrapConfig* cur);
void ApplyMergePatch(const InfraMachinePool& base, const InfraMachinePool& mine,
                     InfraMachinePool* cur);
void ApplyMergePatch(const Machine& base, const Machine& mine, Machine* cur);
void ApplyMergePatch(const InfraMachine& base, const InfraMachine& mine, InfraMachine* cur);
void ApplyMergePatch(const Secret& base, const Secret& mine, Secret* cur);
void ApplyMergePatch(const Node& base, const Node& mine, Node* cur);

}  // namespace mpsim
