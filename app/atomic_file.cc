#include "app/atomic_file.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace mpsim {
namespace {

namespace fs = std::filesystem;

// ".summary.json.tmp-": hidden, so that no glob for outputs (*.json) matches a
// half-written file, and named after its target, so it is clear what it was.
std::string TempPrefix(const fs::path& target) {
  return "." + target.filename().string() + ".tmp-";
}

// Unique per process and per call, for writers on several threads.
std::string TempName(const fs::path& target) {
  static std::atomic<uint64_t> counter{0};
  return (target.parent_path() /
          (TempPrefix(target) + std::to_string(::getpid()) + "-" + std::to_string(counter++)))
      .string();
}

// Removes the temporary files that writers of `target` killed mid-write (say
// by SIGKILL) left behind; a file of a process still alive is left alone.
void RemoveStaleTemps(const fs::path& target) {
  const std::string prefix = TempPrefix(target);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    const long pid = std::strtol(name.c_str() + prefix.size(), nullptr, 10);
    if (pid <= 0 || (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)) {
      fs::remove(entry.path(), ec);
    }
  }
}

}  // namespace

bool WriteFileAtomic(const std::string& path, const std::string& content, std::string* error) {
  std::error_code ec;
  fs::path p(path);
  if (p.has_parent_path()) fs::create_directories(p.parent_path(), ec);
  if (ec) {
    *error = "cannot create directory " + p.parent_path().string() + ": " + ec.message();
    return false;
  }
  RemoveStaleTemps(p);
  const std::string tmp = TempName(p);
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) {
    *error = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  bool ok = std::fwrite(content.data(), 1, content.size(), f) == content.size();
  ok = (std::fflush(f) == 0) && ok;
  ok = (::fsync(fileno(f)) == 0) && ok;
  ok = (std::fclose(f) == 0) && ok;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    *error = "cannot write " + path + ": " + std::strerror(errno);
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

}  // namespace mpsim
