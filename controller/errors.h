// Go-style error helpers over Status: pkg/errors.Wrap and kerrors.NewAggregate,
// so that messages read like the upstream controller's.
#pragma once

#include <string>
#include <vector>

#include "api/status.h"

namespace mpsim {

// "<msg>: <cause>" with the cause's code; OK stays OK (Wrap(nil) is nil in Go).
Status Wrap(const Status& cause, const std::string& msg);

// OK if every status is OK; the single error itself if there is one; else the
// first error's code with the message "[m1, m2, ...]" (kerrors.Aggregate).
Status Aggregate(const std::vector<Status>& errs);

// The message controller-runtime returns after recovering a panic.
inline constexpr const char* kNilPointerPanic =
    "panic: runtime error: invalid memory address or nil pointer dereference [recovered]";

}  // namespace mpsim
