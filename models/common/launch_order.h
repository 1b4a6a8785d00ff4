// The members of a cloud's group in launch order, which is the order its API
// lists them: a vector that a describe copies, where a tree costs a walk.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <vector>

namespace mpsim {

// Launches append, because launch numbers only grow; a removed member leaves
// a hole, found by its number in O(log n) and closed by the next read.
template <class T>
class LaunchOrder {
 public:
  // REQUIRES: seq is greater than every seq appended before.
  void Append(uint64_t seq, T* member) {
    assert(seqs_.empty() || seqs_.back() < seq);
    members_.push_back(member);
    seqs_.push_back(seq);
  }

  // Takes the member launched as `seq` out, if it is there.
  void Remove(uint64_t seq) {
    auto it = std::lower_bound(seqs_.begin(), seqs_.end(), seq);
    if (it == seqs_.end() || *it != seq) return;
    members_[static_cast<size_t>(it - seqs_.begin())] = nullptr;
    has_holes_ = true;
  }

  // Every member, in launch order.
  const std::vector<T*>& Members() const {
    if (has_holes_) CloseHoles();
    return members_;
  }

 private:
  void CloseHoles() const {
    size_t kept = 0;
    for (size_t i = 0; i < members_.size(); ++i) {
      if (members_[i] == nullptr) continue;
      members_[kept] = members_[i];
      seqs_[kept++] = seqs_[i];
    }
    members_.resize(kept);
    seqs_.resize(kept);
    has_holes_ = false;
  }

  // Reads close holes: logically const.
  mutable std::vector<T*> members_;     // nullptr: removed since the last read
  mutable std::vector<uint64_t> seqs_;  // launch number of each slot, holes included
  mutable bool has_holes_ = false;
};

}  // namespace mpsim
