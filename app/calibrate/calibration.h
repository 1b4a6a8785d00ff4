// What `mpsim calibrate` finds in a set of dumps: each delay's samples, the
// rows it could not use, and the fit when there are enough samples.
#pragma once

#include <string>
#include <vector>

#include "app/calibrate/delay_fit.h"
#include "app/calibrate/delay_samples.h"
#include "app/calibrate/dump_rows.h"

namespace mpsim::calibrate {

struct DelayCalibration {
  DelaySamples samples;
  bool fitted = false;
  std::string not_fitted;  // why, when !fitted
  DelayFit fit;
};

struct Calibration {
  size_t nodes = 0;
  size_t instances = 0;
  size_t pools = 0;
  // nodeRegistration, nodeReady, ccmDelay, in that order.
  std::vector<DelayCalibration> delays;
  int provider_id_by_kubelet = 0;

  const DelayCalibration* Find(const std::string& key) const;
};

Calibration Calibrate(const Dumps& dumps);

}  // namespace mpsim::calibrate
