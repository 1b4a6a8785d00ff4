// Writes a file under a temporary name and renames it into place, so an
// interrupted run never leaves a half-written output (DESIGN.md "Errors").
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace mpsim {

// The same, for a text handed over in pieces: each Append goes to the
// temporary file at once, so the whole text is never held in memory.
// Commit renames the file into place; a writer destroyed uncommitted
// removes its temporary file.
class AtomicFileWriter {
 public:
  explicit AtomicFileWriter(std::string path);
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  // After a failure, further Appends do nothing and Commit reports it.
  void Append(std::string_view text);
  // False with *error set if any step failed; the target is then untouched.
  bool Commit(std::string* error);

 private:
  void Fail(const std::string& what);

  std::string path_;
  std::string tmp_;
  std::FILE* file_ = nullptr;
  std::string error_;  // the first failure
  bool committed_ = false;
};

// Writes `content` to a hidden temporary file beside `path` (".NAME.tmp-PID-N")
// and renames it to `path`: readers see the old file or the whole new one.
// Creates parent directories as needed and removes temporary files of NAME
// left by writers that died. False with *error set on failure.
bool WriteFileAtomic(const std::string& path, const std::string& content, std::string* error);

}  // namespace mpsim
