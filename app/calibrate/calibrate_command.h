// `mpsim calibrate FILE... --out OVERLAY.yaml [--json] [--plot]`: fits the
// delays the dumps show (calibration.h), writes the overlay (overlay_writer.h)
// atomically and prints the report (calibrate_report.h).
#pragma once

#include <string>
#include <vector>

namespace mpsim {

struct CalibrateArgs {
  std::vector<std::string> files;
  std::string out;    // the overlay's path
  bool json = false;  // the report as JSON on stdout
  bool plot = false;  // a QQ plot PNG per fitted delay beside the overlay
};

// 0; 2 after one message when a file cannot be read, is of no known kind,
// has a malformed field, or none is a Node list (nothing is written then);
// 3 when only the plots failed (the overlay is written).
int CalibrateCommand(const CalibrateArgs& args);

}  // namespace mpsim
