#include "app/report/plot.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace mpsim {
namespace {

namespace fs = std::filesystem;

std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

bool Succeeds(const std::string& command) { return std::system(command.c_str()) == 0; }

std::string PythonOnPath() {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (dir.empty()) continue;
    const std::string py = dir + "/python3";
    if (::access(py.c_str(), X_OK) == 0) return py;
  }
  return "";
}

}  // namespace

std::string ScriptPath(const std::string& name) {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path beside = exe.parent_path().parent_path() / "scripts" / name;
    if (fs::exists(beside, ec)) return beside.string();
  }
  return std::string(MPSIM_SOURCE_DIR) + "/scripts/" + name;
}

std::vector<std::string> PythonCandidates() {
  if (const char* forced = std::getenv("MPSIM_PYTHON"); forced && *forced) return {forced};
  std::vector<std::string> out = {"/usr/bin/python3"};
  const std::string on_path = PythonOnPath();
  if (!on_path.empty() && on_path != out.front()) out.push_back(on_path);
  return out;
}

std::optional<std::string> FindPlotPython(std::vector<std::string>* tried) {
  for (const std::string& py : PythonCandidates()) {
    tried->push_back(py);
    if (Succeeds(ShellQuote(py) + " -c 'import matplotlib' >/dev/null 2>&1")) return py;
  }
  return std::nullopt;
}

std::optional<std::string> FindPlotPythonOrSay(std::ostream& err, const std::string& kept) {
  std::vector<std::string> tried;
  std::optional<std::string> py = FindPlotPython(&tried);
  if (py) return py;
  std::string names;
  for (const std::string& t : tried) names += (names.empty() ? "" : ", ") + t;
  err << "error: --plot: no Python interpreter with matplotlib (tried " << names
      << "); install it with `apt-get install python3-matplotlib`, or set MPSIM_PYTHON to an "
         "interpreter that has it. "
      << kept << "\n";
  return std::nullopt;
}

bool WritePlots(const std::string& dir, std::ostream& err) {
  const std::optional<std::string> py =
      FindPlotPythonOrSay(err, "The run's other outputs are written.");
  if (!py) return false;
  const std::string script = ScriptPath("plot.py");
  if (Succeeds(ShellQuote(*py) + " " + ShellQuote(script) + " " + ShellQuote(dir) + " >/dev/null"))
    return true;
  err << "error: --plot: " << *py << " " << script << " " << dir << " failed\n";
  return false;
}

}  // namespace mpsim
