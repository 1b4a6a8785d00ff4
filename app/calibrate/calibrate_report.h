// The report of `mpsim calibrate`: per delay the sample count, each family's
// fitted parameters and Kolmogorov-Smirnov distance, the chosen family, the
// median and p99 observed against fitted, what the overlay holds, and the rows
// it could not use with why. As aligned text (stdout) or as JSON (`--json`).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "app/calibrate/calibration.h"

namespace mpsim::calibrate {

void PrintCalibrateReport(std::ostream& os, const Calibration& c);

nlohmann::json CalibrateReportJson(const Calibration& c);

}  // namespace mpsim::calibrate
