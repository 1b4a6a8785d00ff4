// Small inline SVG charts for report.html: no script, no external resource,
// every label escaped. Each returns one <svg> element.
#pragma once

#include <string>
#include <vector>

#include "app/report/timeline_rows.h"

namespace mpsim {

// One line of a step chart.
struct ChartSeries {
  std::string label;
  std::string color;  // a CSS colour, e.g. "#1f77b4"
  bool dashed = false;
  std::vector<StepPoint> points;  // in time order
};

// Step lines of `series` from t=0 to `end_s` (each holds its last value to the
// end), with a y axis from 0 to the largest value and a legend.
std::string StepChartSvg(const std::vector<ChartSeries>& series, double end_s);

// One coloured band per [from_s, to_s) of a horizontal bar from 0 to `end_s`.
struct Band {
  std::string label;
  double from_s = 0;
  double to_s = 0;
};
std::string BandBarSvg(const std::vector<Band>& bands, double end_s);

// A histogram of `values` (seconds) in up to 40 equal bins.
// REQUIRES: !values.empty()
std::string HistogramSvg(const std::vector<double>& values, const std::string& x_label);

// A colour for a pool phase (the palette of scripts/plot.py), grey for others.
std::string PhaseColor(const std::string& phase);

}  // namespace mpsim
