#include "app/huge_pages.h"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

namespace mpsim {
namespace {

constexpr uintptr_t kHugePage = uintptr_t{2} << 20;
constexpr int kDefaultTopPad = 128 * 1024;  // mallopt(3), M_TOP_PAD

}  // namespace

void BackHeapWithHugePages(size_t reserve) {
  // Large blocks come from the heap too, and freed memory stays in it: what
  // the kernel is told about the heap's range then holds for the whole run.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, -1);
  mallopt(M_TOP_PAD, static_cast<int>(reserve));
  // A block larger than the heap's free top makes malloc grow the heap by
  // the block plus the pad (volatile: an unused malloc may be elided).
  void* volatile probe = std::malloc(mallinfo2().keepcost + (1 << 20));
  std::free(probe);
  // Back to glibc's default pad: growth past the reserve is ordinary, and
  // where the reserve could not be had (strict overcommit) later growth
  // must not keep asking for it.
  mallopt(M_TOP_PAD, kDefaultTopPad);
  const auto end = reinterpret_cast<uintptr_t>(sbrk(0));
  const uintptr_t heap_bytes = mallinfo2().arena;  // from the break, contiguous
  if (heap_bytes == 0 || heap_bytes > end) return;
  const uintptr_t from = (end - heap_bytes + kHugePage - 1) & ~(kHugePage - 1);
  const uintptr_t to = end & ~(kHugePage - 1);
  if (to > from) madvise(reinterpret_cast<void*>(from), to - from, MADV_HUGEPAGE);
}

}  // namespace mpsim
