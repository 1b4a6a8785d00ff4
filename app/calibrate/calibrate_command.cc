#include "app/calibrate/calibrate_command.h"

#include <iostream>

#include "app/calibrate/calibrate_report.h"
#include "app/calibrate/calibration.h"
#include "app/calibrate/overlay_writer.h"
#include "app/calibrate/qq_plot.h"
#include "app/calibrate/read_dumps.h"
#include "app/commands.h"
#include "app/report/atomic_file.h"
#include "app/report/run_reports.h"

namespace mpsim {

int CalibrateCommand(const CalibrateArgs& args) {
  calibrate::Dumps dumps;
  std::string error;
  if (!calibrate::ReadDumps(args.files, &dumps, &error)) {
    std::cerr << "error: calibrate: " << error << "\n";
    return kExitBadInput;
  }
  if (dumps.nodes.empty()) {
    std::cerr << "error: calibrate: no Node among the files; every delay is measured from "
                 "Nodes: add the output of `kubectl get nodes -o json --show-managed-fields`\n";
    return kExitBadInput;
  }
  const calibrate::Calibration cal = calibrate::Calibrate(dumps);
  if (!WriteFileAtomic(args.out, calibrate::OverlayText(cal), &error)) {
    std::cerr << "error: calibrate: " << error << "\n";
    return kExitBadInput;
  }
  if (args.json) {
    nlohmann::json report = calibrate::CalibrateReportJson(cal);
    report["overlay"] = args.out;
    std::cout << report.dump(2) << "\n";
  } else {
    calibrate::PrintCalibrateReport(std::cout, cal);
    std::cout << "\noverlay written to " << args.out << "\n";
  }
  if (args.plot && !calibrate::WriteQqPlots(cal, args.out, std::cerr)) return kExitPlotFailed;
  return kExitOk;
}

}  // namespace mpsim
