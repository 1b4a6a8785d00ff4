#include "app/calibrate/qq_plot.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "app/report/atomic_file.h"
#include "app/report/plot.h"

namespace mpsim::calibrate {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string QqQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

json QqDelayJson(const DelayCalibration& d, const std::string& png) {
  std::vector<double> x = d.samples.seconds;
  std::sort(x.begin(), x.end());
  json out = {{"key", d.samples.key},
              {"what", d.samples.what},
              {"png", png},
              {"observed", x},
              {"families", json::array()}};
  const double n = static_cast<double>(x.size());
  for (size_t f = 0; f < d.fit.families.size(); ++f) {
    const FamilyResult& r = d.fit.families[f];
    std::vector<double> q;
    for (size_t i = 0; i < x.size(); ++i) {
      q.push_back(FittedQuantile(r.params, (static_cast<double>(i) + 0.5) / n));
    }
    out["families"].push_back({{"family", FamilyName(r.params.family)},
                               {"ks", r.ks},
                               {"chosen", f == d.fit.chosen},
                               {"quantiles", q}});
  }
  return out;
}

}  // namespace

std::string QqPlotPath(const std::string& overlay_path, const std::string& key) {
  const fs::path p(overlay_path);
  return (p.parent_path() / (p.stem().string() + "-" + key + "-qq.png")).string();
}

bool WriteQqPlots(const Calibration& c, const std::string& overlay_path, std::ostream& err) {
  const std::optional<std::string> py = FindPlotPythonOrSay(err, "The overlay is written.");
  if (!py) return false;
  json plots = json::array();
  for (const DelayCalibration& d : c.delays) {
    if (d.fitted) plots.push_back(QqDelayJson(d, QqPlotPath(overlay_path, d.samples.key)));
  }
  const fs::path data =
      fs::path(overlay_path).parent_path() /
      ("." + fs::path(overlay_path).stem().string() + "-qq-" + std::to_string(getpid()) + ".json");
  std::string error;
  if (!WriteFileAtomic(data.string(), plots.dump(), &error)) {
    err << "error: --plot: " << error << "\n";
    return false;
  }
  const std::string script = ScriptPath("qq_plot.py");
  const bool ok = std::system((QqQuote(*py) + " " + QqQuote(script) + " " + QqQuote(data.string()) +
                               " >/dev/null")
                                  .c_str()) == 0;
  std::error_code ec;
  fs::remove(data, ec);
  if (!ok) err << "error: --plot: " << *py << " " << script << " failed\n";
  return ok;
}

}  // namespace mpsim::calibrate
