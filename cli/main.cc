#include <iostream>
#include "app/version.h"
int main() { std::cout << "mpsim " << mpsim::VersionString() << "\n"; return 0; }
