#include "app/report/atomic_file.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <utility>

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

AtomicFileWriter::AtomicFileWriter(std::string path) : path_(std::move(path)) {
  std::error_code ec;
  fs::path p(path_);
  if (p.has_parent_path()) fs::create_directories(p.parent_path(), ec);
  if (ec) {
    error_ = "cannot create directory " + p.parent_path().string() + ": " + ec.message();
    return;
  }
  RemoveStaleTemps(p);
  tmp_ = TempName(p);
  file_ = std::fopen(tmp_.c_str(), "wb");
  if (file_ == nullptr) Fail("cannot write " + path_);
}

AtomicFileWriter::~AtomicFileWriter() {
  if (file_ != nullptr) std::fclose(file_);
  if (!committed_ && !tmp_.empty()) std::remove(tmp_.c_str());
}

void AtomicFileWriter::Fail(const std::string& what) {
  if (error_.empty()) error_ = what + ": " + std::strerror(errno);
}

void AtomicFileWriter::Append(std::string_view text) {
  if (file_ == nullptr || !error_.empty()) return;
  if (std::fwrite(text.data(), 1, text.size(), file_) != text.size()) {
    Fail("cannot write " + path_);
  }
}

bool AtomicFileWriter::Commit(std::string* error) {
  if (file_ != nullptr) {
    bool ok = error_.empty() && std::fflush(file_) == 0;
    ok = ok && ::fsync(fileno(file_)) == 0;
    if (!ok) Fail("cannot write " + path_);
    const bool closed = std::fclose(file_) == 0;
    file_ = nullptr;
    if (!closed) Fail("cannot write " + path_);
  }
  if (error_.empty() && std::rename(tmp_.c_str(), path_.c_str()) != 0) {
    Fail("cannot write " + path_);
  }
  if (!error_.empty()) {
    *error = error_;
    return false;
  }
  committed_ = true;
  return true;
}

bool WriteFileAtomic(const std::string& path, const std::string& content, std::string* error) {
  AtomicFileWriter out(path);
  out.Append(content);
  return out.Commit(error);
}

}  // namespace mpsim
