// For builders that walk the timeline making one FlatViewMap find per row:
// each find's loads start some rows ahead, so that at 100,000 replicas the
// cache misses of consecutive rows overlap instead of adding up.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "util/flat_view_map.h"

namespace mpsim {

inline constexpr size_t kRowsAhead = 8;

// Visits rows in order. Before visiting row i, calls look(rows[j], j, step)
// for j = i + step * kRowsAhead with step 3, 2 and 1, where j is a row: each
// row is looked at three times before its visit, last at step 1.
template <class Rows, class Look, class Visit>
void VisitRowsLookingAhead(const Rows& rows, Look look, Visit visit) {
  const size_t n = rows.size();
  for (size_t i = 0; i < n; ++i) {
    for (int step = 3; step >= 1; --step) {
      const size_t later = i + static_cast<size_t>(step) * kRowsAhead;
      if (later < n) look(rows[later], later, step);
    }
    visit(rows[i]);
  }
}

// The steps of one find per row, for VisitRowsLookingAhead's look: the row's
// key is asked for and hashed at step 3, and its hash kept for steps 2 and 1
// (FlatViewMap::PrefetchFind). Step 1 returns the entry the find will read
// first, for a caller that also loads what its value names.
class RowFindsAhead {
 public:
  template <class V, class Key>
  const typename FlatViewMap<V>::value_type* Step(const FlatViewMap<V>& map, size_t row, int step,
                                                  Key key) {
    uint64_t& hash = hashes_[row % hashes_.size()];
    if (step == 3) hash = FlatViewMap<V>::Hash(key());
    return map.PrefetchFind(hash, step);
  }

 private:
  std::array<uint64_t, 4 * kRowsAhead> hashes_{};  // by row; a row's lives 3 * kRowsAhead rows
};

}  // namespace mpsim
