// `mpsim run --plot`: finds a Python interpreter that has matplotlib and runs
// scripts/plot.py on a result directory, writing PNGs into it.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace mpsim {

// The interpreters to try, in order: $MPSIM_PYTHON alone when it is set, else
// /usr/bin/python3 (where Debian's python3-matplotlib lives) and then the
// python3 found on PATH (often a pyenv shim without matplotlib). Keep in step
// with mpsim_python in scripts/lib.sh.
std::vector<std::string> PythonCandidates();

// The first candidate that can `import matplotlib`; every one tried goes to *tried.
std::optional<std::string> FindPlotPython(std::vector<std::string>* tried);

// As FindPlotPython; when none has matplotlib, says so on `err`, naming
// what was tried and ending with `kept` (what the command wrote anyway).
std::optional<std::string> FindPlotPythonOrSay(std::ostream& err, const std::string& kept);

// The path of scripts/`name`: beside the binary (build/mpsim -> scripts/),
// else in the source tree it was built from.
std::string ScriptPath(const std::string& name);

// Runs scripts/plot.py on `dir`. False, after one message on `err` naming
// what was tried and how to install matplotlib, when it could not.
bool WritePlots(const std::string& dir, std::ostream& err);

}  // namespace mpsim
