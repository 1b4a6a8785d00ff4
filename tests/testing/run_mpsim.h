// Runs the real mpsim binary the way a user's CI does, for end-to-end tests:
// exit status and captured stdout.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
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

// This test process's scratch directory under the test temp dir, removed
// with all it holds when the process exits (ctest runs each test as a
// process of its own): concurrent test runs (ctest -j, two checkouts on one
// machine) never share one, and none is left behind.
inline const std::filesystem::path& ScratchDir() {
  struct Dir {
    std::filesystem::path path =
        std::filesystem::path(::testing::TempDir()) / ("mpsim_" + std::to_string(getpid()));
    Dir() { std::filesystem::create_directories(path); }
    ~Dir() {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  };
  static const Dir dir;
  return dir.path;
}

// A scratch path in this process's scratch directory.
inline std::filesystem::path ScratchPath(const std::string& name) { return ScratchDir() / name; }

inline std::string Slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// `mpsim validate` of a one-pool scenario whose `provider.<provider>` block
// is `block` (YAML flow text), written to a scratch file of this process.
inline Ran ValidateProviderBlock(const std::string& provider, const std::string& block) {
  const std::filesystem::path path = ScratchPath(provider + "_validation.yaml");
  std::ofstream(path) << "apiVersion: mpsim/v1\nkind: Scenario\nmetadata: {name: v}\nspec:\n"
                         "  machinePools:\n    - name: mp-0\n      replicas: 1\n"
                         "      provider:\n        "
                      << provider << ": " << block << "\n";
  return Mpsim("validate " + path.string(), /*with_stderr=*/true);
}

inline std::string Src(const std::string& rel) { return std::string(MPSIM_SOURCE_DIR) + "/" + rel; }

}  // namespace mpsim::testing
