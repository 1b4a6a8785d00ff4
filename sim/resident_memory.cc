#include "sim/resident_memory.h"

#include <unistd.h>

#include <cstdio>

namespace mpsim {

uint64_t ResidentMemoryBytes() {
  // statm: total and resident sizes in pages; no allocation, one small read.
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long long total = 0, resident = 0;
  const int n = std::fscanf(f, "%llu %llu", &total, &resident);
  std::fclose(f);
  const long page = ::sysconf(_SC_PAGESIZE);
  if (n != 2 || page <= 0) return 0;
  return resident * static_cast<uint64_t>(page);
}

}  // namespace mpsim
