// Which memory a reader of an object reads first, for batched reads that
// start loading it a few objects early (util/batched_find.h). A type whose
// readers read more than its first line declares overloads in its own
// namespace, found by argument-dependent lookup.
#pragma once

#include "util/prefetch.h"
#include "util/shared_string.h"

namespace mpsim {

// The line where a reader of the object starts.
template <class T>
void PrefetchObjectLines(const T* obj) {
  PrefetchRead(obj);
}
// What a reader reads beyond that line; called once it is loaded.
template <class T>
void PrefetchHotLines(const T&) {}
// A string's reader reads its buffer (and the hash it keeps there).
inline void PrefetchHotLines(const SharedString& s) { s.Prefetch(); }

}  // namespace mpsim
