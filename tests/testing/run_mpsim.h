// Runs the real mpsim binary the way a user's CI does, for end-to-end tests:
// exit status and captured stdout.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace mpsim::testing {

struct Ran {
  int status;       // exit status, -1 if killed
  std::string out;  // stdout (stderr too when asked)
};

// `args` is a shell fragment appended to the binary's path.
inline Ran Mpsim(const std::string& args, bool with_stderr = false) {
  const std::string cmd =
      std::string(MPSIM_BINARY) + " " + args + (with_stderr ? " 2>&1" : " 2>/dev/null");
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int st = pclose(p);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, out};
}

inline std::string Src(const std::string& rel) { return std::string(MPSIM_SOURCE_DIR) + "/" + rel; }

}  // namespace mpsim::testing
