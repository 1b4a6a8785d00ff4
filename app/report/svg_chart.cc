#include "app/report/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "app/report/html_escape.h"

namespace mpsim {
namespace {

// The plot area inside each chart, in SVG user units.
constexpr double kSvgWidth = 720, kSvgHeight = 220;
constexpr double kSvgLeft = 48, kSvgRight = 12, kSvgTop = 12, kSvgBottom = 44;
constexpr double kSvgPlotW = kSvgWidth - kSvgLeft - kSvgRight,
                 kSvgPlotH = kSvgHeight - kSvgTop - kSvgBottom;

std::string SvgNum(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string SvgLabel(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string SvgOpen(double height) {
  return "<svg width=\"" + SvgNum(kSvgWidth) + "\" height=\"" + SvgNum(height) +
         "\" viewBox=\"0 0 " + SvgNum(kSvgWidth) + " " + SvgNum(height) +
         "\" font-family=\"sans-serif\" font-size=\"11\">";
}

std::string SvgText(double x, double y, const std::string& anchor, const std::string& text) {
  return "<text x=\"" + SvgNum(x) + "\" y=\"" + SvgNum(y) + "\" text-anchor=\"" + anchor + "\">" +
         HtmlEscape(text) + "</text>";
}

// The two axes with their end labels, and a caption under the x axis.
std::string SvgAxes(double x_max, double y_max, const std::string& x_caption) {
  const double bottom = kSvgTop + kSvgPlotH;
  std::string s = "<path d=\"M" + SvgNum(kSvgLeft) + " " + SvgNum(kSvgTop) + " V" + SvgNum(bottom) +
                  " H" + SvgNum(kSvgLeft + kSvgPlotW) + "\" fill=\"none\" stroke=\"#444\"/>";
  s += SvgText(kSvgLeft - 4, bottom + 4, "end", "0");
  s += SvgText(kSvgLeft - 4, kSvgTop + 8, "end", SvgLabel(y_max));
  s += SvgText(kSvgLeft, bottom + 14, "middle", "0");
  s += SvgText(kSvgLeft + kSvgPlotW, bottom + 14, "end", SvgLabel(x_max));
  s += SvgText(kSvgLeft + kSvgPlotW / 2, bottom + 14, "middle", x_caption);
  return s;
}

double SvgX(double t, double end) { return kSvgLeft + kSvgPlotW * std::clamp(t / end, 0.0, 1.0); }
double SvgY(double v, double max) {
  return kSvgTop + kSvgPlotH * (1 - std::clamp(v / max, 0.0, 1.0));
}

std::string SvgStepPath(const ChartSeries& s, double end, double y_max) {
  std::string d;
  for (const StepPoint& p : s.points) {
    const std::string x = SvgNum(SvgX(p.time_s, end)), y = SvgNum(SvgY(p.value, y_max));
    d += d.empty() ? "M" + x + " " + y : " H" + x + " V" + y;
  }
  d += " H" + SvgNum(SvgX(end, end));
  return "<path d=\"" + d + "\" fill=\"none\" stroke=\"" + HtmlEscape(s.color) +
         "\" stroke-width=\"2\"" + (s.dashed ? " stroke-dasharray=\"6 3\"" : "") + "/>";
}

std::string SvgLegend(const std::vector<ChartSeries>& series) {
  std::string s;
  double x = kSvgLeft;
  for (const ChartSeries& c : series) {
    const double y = kSvgHeight - 10;
    s += "<rect x=\"" + SvgNum(x) + "\" y=\"" + SvgNum(y - 8) +
         "\" width=\"12\" height=\"8\" fill=\"" + HtmlEscape(c.color) + "\"/>";
    s += SvgText(x + 16, y, "start", c.label);
    x += 24 + 7.0 * static_cast<double>(c.label.size());
  }
  return s;
}

}  // namespace

std::string PhaseColor(const std::string& phase) {
  static const std::map<std::string, std::string> kColors = {
      {"Pending", "#f2d7a6"}, {"Provisioning", "#f6e3b4"}, {"Provisioned", "#dbe9c4"},
      {"Running", "#c9e7c9"}, {"ScalingUp", "#cfe0f3"},    {"ScalingDown", "#e3d3ee"},
      {"Scaling", "#cfe0f3"}, {"Deleting", "#f3c4c4"},     {"Failed", "#e89a9a"}};
  auto it = kColors.find(phase);
  return it == kColors.end() ? "#eeeeee" : it->second;
}

std::string StepChartSvg(const std::vector<ChartSeries>& series, double end_s) {
  const double end = end_s > 0 ? end_s : 1;
  double y_max = 1;
  for (const ChartSeries& c : series) {
    for (const StepPoint& p : c.points) y_max = std::max(y_max, p.value);
  }
  std::string s = SvgOpen(kSvgHeight) + SvgAxes(end_s, y_max, "simulated time (s)");
  for (const ChartSeries& c : series) s += SvgStepPath(c, end, y_max);
  return s + SvgLegend(series) + "</svg>";
}

std::string BandBarSvg(const std::vector<Band>& bands, double end_s) {
  const double end = end_s > 0 ? end_s : 1;
  constexpr double kBarH = 28;
  std::string s = SvgOpen(kBarH + 20);
  for (const Band& b : bands) {
    const double x0 = SvgX(b.from_s, end), x1 = SvgX(b.to_s, end);
    s += "<rect x=\"" + SvgNum(x0) + "\" y=\"2\" width=\"" + SvgNum(std::max(x1 - x0, 0.5)) +
         "\" height=\"" + SvgNum(kBarH) + "\" fill=\"" + PhaseColor(b.label) +
         "\" stroke=\"#fff\"><title>" + HtmlEscape(b.label) + " " + SvgLabel(b.from_s) + "s to " +
         SvgLabel(b.to_s) + "s</title></rect>";
    if (x1 - x0 > 7.0 * static_cast<double>(b.label.size())) {
      s += SvgText((x0 + x1) / 2, 2 + kBarH / 2 + 4, "middle", b.label);
    }
  }
  s += SvgText(kSvgLeft, kBarH + 16, "middle", "0");
  s += SvgText(kSvgLeft + kSvgPlotW, kBarH + 16, "end", SvgLabel(end_s) + "s");
  return s + "</svg>";
}

std::string HistogramSvg(const std::vector<double>& values, const std::string& x_label) {
  const double lo = 0, hi = std::max(*std::max_element(values.begin(), values.end()), 1e-6);
  const size_t bins = std::clamp<size_t>(values.size() / 5, 5, 40);
  std::vector<size_t> count(bins, 0);
  for (double v : values) {
    const double at = std::clamp((v - lo) / (hi - lo), 0.0, 1.0) * static_cast<double>(bins);
    ++count[std::min(static_cast<size_t>(at), bins - 1)];
  }
  const double y_max = static_cast<double>(*std::max_element(count.begin(), count.end()));
  std::string s = SvgOpen(kSvgHeight) + SvgAxes(hi, y_max, x_label);
  const double w = kSvgPlotW / static_cast<double>(bins);
  for (size_t i = 0; i < bins; ++i) {
    const double y = SvgY(static_cast<double>(count[i]), y_max);
    s += "<rect x=\"" + SvgNum(kSvgLeft + w * static_cast<double>(i)) + "\" y=\"" + SvgNum(y) +
         "\" width=\"" + SvgNum(w - 1) + "\" height=\"" + SvgNum(kSvgTop + kSvgPlotH - y) +
         "\" fill=\"#1f77b4\"><title>" + std::to_string(count[i]) + " nodes</title></rect>";
  }
  return s + "</svg>";
}

}  // namespace mpsim
