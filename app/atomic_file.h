// Writes a file under a temporary name and renames it into place, so an
// interrupted run never leaves a half-written output (DESIGN.md "Errors").
#pragma once

#include <string>

namespace mpsim {

// Creates parent directories as needed. False with *error set on failure.
bool WriteFileAtomic(const std::string& path, const std::string& content, std::string* error);

}  // namespace mpsim
