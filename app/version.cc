#include "app/version.h"
#ifndef MPSIM_VERSION
#define MPSIM_VERSION "0.0.0"
#endif
#ifndef MPSIM_GIT_COMMIT
#define MPSIM_GIT_COMMIT "unknown"
#endif
namespace mpsim {
std::string VersionString() { return std::string(MPSIM_VERSION) + " (commit " + MPSIM_GIT_COMMIT + ")"; }
}  // namespace mpsim
