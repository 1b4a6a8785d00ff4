// `mpsim calibrate --plot`: one QQ plot PNG per fitted delay, the observed
// quantiles against each family's fitted ones at plotting positions
// (i - 0.5) / n, drawn by scripts/qq_plot.py with the Python that
// `mpsim run --plot` finds (app/report/plot.h). The PNGs go beside the
// overlay as <overlay stem>-<delay>-qq.png.
#pragma once

#include <ostream>
#include <string>

#include "app/calibrate/calibration.h"

namespace mpsim::calibrate {

// False after one message on `err` when no interpreter has matplotlib or the
// script failed.
bool WriteQqPlots(const Calibration& c, const std::string& overlay_path, std::ostream& err);

// The PNG path of delay `key` for the overlay at `overlay_path`.
std::string QqPlotPath(const std::string& overlay_path, const std::string& key);

}  // namespace mpsim::calibrate
