// Writes a file under a temporary name and renames it into place, so an
// interrupted run never leaves a half-written output (DESIGN.md "Errors").
#pragma once

#include <string>

namespace mpsim {

// Writes `content` to a hidden temporary file beside `path` (".NAME.tmp-PID-N")
// and renames it to `path`: readers see the old file or the whole new one.
// Creates parent directories as needed and removes temporary files of NAME
// left by writers that died. False with *error set on failure.
bool WriteFileAtomic(const std::string& path, const std::string& content, std::string* error);

}  // namespace mpsim
