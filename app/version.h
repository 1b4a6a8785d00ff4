// The version string printed by `mpsim --version` and in replay commands.
#pragma once
#include <string>
namespace mpsim {
std::string VersionString();
}
