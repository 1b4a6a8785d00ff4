// The CLI asks for huge pages on its heap: the advice must reach the kernel.
#include "app/huge_pages.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

namespace mpsim {
namespace {

bool ThpAvailable() {
  std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string mode;
  std::getline(f, mode);
  return f.good() && mode.find("[never]") == std::string::npos;
}

// The smaps block of the mapping that holds `addr`.
std::string MappingOf(uintptr_t addr) {
  std::ifstream maps("/proc/self/smaps");
  std::string line, block;
  bool inside = false;
  while (std::getline(maps, line)) {
    uintptr_t lo = 0, hi = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> lo >> dash >> hi && dash == '-') {
      if (inside) return block;
      inside = addr >= lo && addr < hi;
      block.clear();
    }
    if (inside) block += line + "\n";
  }
  return inside ? block : "";
}

TEST(HugePages, TheHeapIsAdvisedForHugePages) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "the sanitizer's allocator is not glibc's heap";
#endif
  if (!ThpAvailable()) GTEST_SKIP() << "this kernel has no transparent huge pages";
  constexpr size_t kReserve = size_t{64} << 20;
  BackHeapWithHugePages(kReserve);
  // The middle of the reserve, below the break, lies in the advised range.
  const auto inside = reinterpret_cast<uintptr_t>(sbrk(0)) - kReserve / 2;
  const std::string mapping = MappingOf(inside);
  ASSERT_FALSE(mapping.empty());
  EXPECT_NE(mapping.find(" hg"), std::string::npos) << mapping;  // VmFlags: hg = MADV_HUGEPAGE
}

}  // namespace
}  // namespace mpsim
