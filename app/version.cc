#include "app/version.h"

#include "git_commit.h"  // generated at build time by cmake/git_commit.cmake
#ifndef MPSIM_VERSION
#define MPSIM_VERSION "0.0.0"
#endif

namespace mpsim {
std::string VersionString() {
  return std::string(MPSIM_VERSION) + " (commit " + MPSIM_GIT_COMMIT + ")";
}
}  // namespace mpsim
