// The requeue and debounce times CAPZ's controllers share
// (util/reconciler/defaults.go; docs/reference/providers.md §2.4).
#pragma once

#include "api/time.h"

namespace mpsim::vmss {

// An async operation's future is saved and not done yet (OperationNotDone).
inline constexpr Duration kAsyncRequeue = 15 * kSecond;
// --debouncing-timer of the coalescing reconciler.
inline constexpr Duration kDebounce = 10 * kSecond;

}  // namespace mpsim::vmss
