// A fixed, sorted set of numbers that only loses members, answering "how many
// are left up to x" and "which is the k-th left" in O(log n) each.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace mpsim {

// A Fenwick tree over the members' positions, each counting 1 while present.
// For picks that draw the k-th of a shrinking tied set, which a vector would
// answer by erasing from its middle: O(n) per pick, O(n²) for a scale-in.
class RankSet {
 public:
  // REQUIRES: `members` ascending, without repeats.
  explicit RankSet(std::vector<uint32_t> members)
      : members_(std::move(members)), tree_(members_.size() + 1, 0), left_(members_.size()) {
    // Linear build: each node adds itself to its parent.
    for (size_t i = 1; i < tree_.size(); ++i) {
      tree_[i] += 1;
      const size_t parent = i + (i & (~i + 1));
      if (parent < tree_.size()) tree_[parent] += tree_[i];
    }
  }

  size_t size() const { return left_; }
  bool empty() const { return left_ == 0; }

  // How many members left are <= x.
  size_t CountUpTo(uint32_t x) const {
    size_t i = static_cast<size_t>(std::upper_bound(members_.begin(), members_.end(), x) -
                                   members_.begin());
    size_t sum = 0;
    for (; i > 0; i -= i & (~i + 1)) sum += tree_[i];
    return sum;
  }

  // The k-th smallest member left, counting from 0. REQUIRES: k < size().
  uint32_t Kth(size_t k) const {
    size_t pos = 0;
    size_t step = 1;
    while (step * 2 < tree_.size()) step *= 2;
    for (; step > 0; step /= 2) {
      if (pos + step < tree_.size() && tree_[pos + step] <= k) {
        pos += step;
        k -= tree_[pos];
      }
    }
    return members_[pos];  // position pos + 1, zero-based pos
  }

  // REQUIRES: x is a member left.
  void Remove(uint32_t x) {
    size_t i = static_cast<size_t>(std::lower_bound(members_.begin(), members_.end(), x) -
                                   members_.begin()) +
               1;
    for (; i < tree_.size(); i += i & (~i + 1)) --tree_[i];
    --left_;
  }

 private:
  std::vector<uint32_t> members_;
  std::vector<uint32_t> tree_;  // 1-based Fenwick sums of "still present"
  size_t left_;
};

// The k-th smallest member left across several disjoint RankSets, counting
// from 0: a binary search on the value, as the sets interleave.
// REQUIRES: k < the sum of their sizes.
inline uint32_t KthAcross(const std::vector<const RankSet*>& sets, size_t k) {
  if (sets.size() == 1) return sets.front()->Kth(k);
  uint32_t lo = UINT32_MAX;
  uint32_t hi = 0;
  for (const RankSet* s : sets) {
    if (s->empty()) continue;
    lo = std::min(lo, s->Kth(0));
    hi = std::max(hi, s->Kth(s->size() - 1));
  }
  while (lo < hi) {  // the smallest x with more than k members left up to it
    const uint32_t mid = lo + (hi - lo) / 2;
    size_t n = 0;
    for (const RankSet* s : sets) n += s->CountUpTo(mid);
    if (n > k) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo;
}

}  // namespace mpsim
