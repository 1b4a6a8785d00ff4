// CAPS's version test (internal/service/scaleway/common/semver.go, IsUpToDate;
// docs/reference/oci-scaleway.md §3.1): whether a pool's version is at least
// the desired one, both strict semantic versions without a `v`.
#pragma once

#include <string>

#include "api/status.h"

namespace mpsim::kapsule {

// Sets `*up_to_date` to current >= desired. Fails (Invalid) when either is
// not a strict "X.Y.Z[-pre][+build]" version, as CAPS's StrictNewVersion.
// Pre-releases order below their release and among themselves as text (semver
// compares their dot-separated parts; none of mpsim's versions needs that).
Status IsUpToDate(const std::string& current, const std::string& desired, bool* up_to_date);

}  // namespace mpsim::kapsule
