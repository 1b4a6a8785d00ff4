// An allocator whose blocks start on a cache line, for what every reconcile
// reads the start of, once per Node: annotations, conditions, stored versions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

namespace mpsim {

inline constexpr std::size_t kCacheLine = 64;

// malloc aligns to 16 bytes, so a buffer's first 64 bytes (a Node's four
// owner annotations; a condition's type and status) span two cache lines
// three times in four. Aligned, they are one line: one miss per Node per
// pass where there were 1.75 on average. With kLineAt, the line starts that
// many bytes into each block instead, for an object whose hot 64 bytes do
// not lead it (a stored Node, behind its count block and its taints).
template <class T, std::size_t kLineAt = 0>
struct LineAligned {
  static_assert(kLineAt < kCacheLine);
  using value_type = T;
  template <class U>
  struct rebind {
    using other = LineAligned<U, kLineAt>;
  };

  LineAligned() = default;
  template <class U>
  LineAligned(const LineAligned<U, kLineAt>&) noexcept {}  // NOLINT: rebinding, as std::allocator

  // One malloc, moved up to the next line, with where it began kept in the
  // 8 bytes before the block: glibc's aligned operator new takes a memalign,
  // three to four times malloc's instructions (docs/PERFORMANCE.md,
  // eighteenth round).
  T* allocate(std::size_t n) {
    void* raw = std::malloc(n * sizeof(T) + kCacheLine);
    if (raw == nullptr) throw std::bad_alloc();
    // The first line that starts 8 + kLineAt bytes or more into the malloc,
    // less kLineAt: malloc aligns to 16, so the block starts 8 to 64 bytes in.
    const auto line =
        (reinterpret_cast<std::uintptr_t>(raw) + sizeof raw + kLineAt + kCacheLine - 1) &
        ~(kCacheLine - 1);
    char* block = reinterpret_cast<char*>(line - kLineAt);
    std::memcpy(block - sizeof raw, &raw, sizeof raw);
    return reinterpret_cast<T*>(block);
  }
  void deallocate(T* p, std::size_t) noexcept {
    void* raw = nullptr;
    std::memcpy(&raw, reinterpret_cast<char*>(p) - sizeof raw, sizeof raw);
    std::free(raw);
  }
  template <class U>
  bool operator==(const LineAligned<U, kLineAt>&) const noexcept {
    return true;
  }
};

}  // namespace mpsim
