// Ctrl-C (SIGINT) and SIGTERM (what Kubernetes sends a pod it stops) ask a
// sweep to stop after the runs under way are written; a second one kills.
#pragma once

#include <atomic>

namespace mpsim {

// Installs the handlers; the flag becomes true at the first signal.
const std::atomic<bool>* InstallSweepInterrupt();

}  // namespace mpsim
