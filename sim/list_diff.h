// What changed between two versions of a list of names or providerIDs, as
// sets: the informer's field indexes and the pool observer both need it.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "api/objects.h"
#include "util/shared_string.h"

namespace mpsim {

struct ListDiff {
  std::vector<std::string_view> gone;   // in `before` only; sorted, unique
  std::vector<std::string_view> added;  // in `after` only; sorted, unique
};

// What the caller already knows of the lists' order (SharedList caches it
// per list version): strictly sorted lists need no check before the merge.
struct KnownOrder {
  bool before_sorted = false;
  bool after_sorted = false;
};

// Set difference both ways of lists of shared strings, given by address.
// Versions of a list share most entries' buffers: when both lists are known
// sorted, the merge settles a shared entry by its buffer's address and reads
// the text of the changed entries only.
// Otherwise a hashed join on the hash each buffer keeps reads each buffer
// once, where sorting both lists read each O(log n) times.
ListDiff DiffShared(const std::vector<const SharedString*>& before,
                    const std::vector<const SharedString*>& after, KnownOrder known = {});

// DiffShared of the nodeRefs' names, worked out once per pair of versions:
// the informer's nodeName index and the pool observer each ask it of every
// MachinePool write, and at 100k each answer reads 200,000 buffers.
std::shared_ptr<const ListDiff> DiffNodeRefNames(const SharedList<NodeReference>& before,
                                                 const SharedList<NodeReference>& after);

}  // namespace mpsim
