// A cursor over a list walked in about the order of another: each lookup
// tries the next few entries and moves past the one it finds.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace mpsim {

// Lists a run rewrites (nodeRefs, providerIDList) mostly keep their old
// entries in their old order, with entries put in or taken out here and
// there. Walking the new list, each entry is found within a few places of
// where the last one was, usually by its buffer's address, with no read of
// any text; entries passed over are never looked at again.
template <class T>
class LookAheadCursor {
 public:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);

  explicit LookAheadCursor(const std::vector<T>& v) : v_(v) {}

  // The index of the first of the next `window` entries that `match`
  // accepts, the cursor then past it; kNone, the cursor unmoved, if none is.
  template <class Match>
  std::size_t Find(std::size_t window, Match match) {
    const std::size_t end = std::min(v_.size(), next_ + window);
    for (std::size_t k = next_; k < end; ++k) {
      if (match(v_[k])) {
        next_ = k + 1;
        return k;
      }
    }
    return kNone;
  }
  // The next entry, the cursor then past it; nullptr at the end.
  const T* Next() { return next_ < v_.size() ? &v_[next_++] : nullptr; }

 private:
  const std::vector<T>& v_;
  std::size_t next_ = 0;  // entries before it were found or passed
};

}  // namespace mpsim
