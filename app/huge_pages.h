// Asks the kernel to back the malloc heap of the main thread with
// transparent huge pages, as GLIBC_TUNABLES=glibc.malloc.hugetlb=1 would.
#pragma once

#include <cstddef>

namespace mpsim {

// Grows the heap by `reserve` bytes of address space at once (untouched
// pages cost no memory) and advises the kernel to fault it in 2 MiB pages:
// a 10,000-replica run walks ~100 MB of objects per reconcile pass, and with
// 4 KiB pages most Node visits also miss the TLB. Harmless where the kernel
// has no THP, or under a malloc that is not glibc's (sanitizers, valgrind).
void BackHeapWithHugePages(size_t reserve);

}  // namespace mpsim
