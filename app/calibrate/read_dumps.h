// Reads the files given to `mpsim calibrate` and `mpsim import`: each is
// parsed as JSON, its kind recognised from its content (dump_kind.h), and its
// rows appended to one Dumps.
#pragma once

#include <string>
#include <vector>

#include "app/calibrate/dump_rows.h"

namespace mpsim::calibrate {

// False with *error naming the file (and JSON path) of the first file that
// cannot be read, is not JSON, is of no known kind, or has a malformed field.
bool ReadDumps(const std::vector<std::string>& files, Dumps* out, std::string* error);

}  // namespace mpsim::calibrate
