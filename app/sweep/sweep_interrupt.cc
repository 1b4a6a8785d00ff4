#include "app/sweep/sweep_interrupt.h"

#include <signal.h>

namespace mpsim {
namespace {

std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

void OnSignal(int) { g_interrupted = true; }

}  // namespace

const std::atomic<bool>* InstallSweepInterrupt() {
  struct sigaction sa = {};
  sa.sa_handler = OnSignal;
  sa.sa_flags = SA_RESETHAND;  // the second signal takes its default action
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  return &g_interrupted;
}

}  // namespace mpsim
