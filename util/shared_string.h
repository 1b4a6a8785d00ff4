// An immutable string whose copies share one buffer. Every version of a
// 10,000-entry providerIDList repeats the entries of the last one: a copy of
// a SharedString is a reference count, where a std::string copies its bytes.
#pragma once

#include <atomic>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <ext/atomicity.h>
#include <memory>
#include <memory_resource>
#include <ostream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "util/prefetch.h"
#include "util/string_hash.h"

namespace mpsim {

// Reads behave like `const std::string`: it converts to `const std::string&`
// and to std::string_view, and compares by value with either. Copies that
// share a buffer compare equal without looking at it. The count is atomic
// once the process has a second thread, so a string may outlive its run on
// another thread (sweeps run in threads); before that, as libstdc++ does for
// shared_ptr, it is a plain add: a locked add would also wait for every
// load in flight, and the reconcile passes keep many in flight on purpose.
class SharedString {
 public:
  SharedString() = default;
  SharedString(std::string s)  // NOLINT: implicit, as a list of strings is one
      : bits_(s.empty() ? 0 : reinterpret_cast<uintptr_t>(new Rep(std::move(s)))) {}
  SharedString(const char* s) : SharedString(std::string(s)) {}  // NOLINT: as above
  explicit SharedString(std::string_view s) : SharedString(std::string(s)) {}
  SharedString(const SharedString& o) noexcept : bits_(o.bits_) {
    if (Counted()) __gnu_cxx::__atomic_add_dispatch(&rep()->refs, 1);
  }
  // A string that is never counted nor freed: for constants held in statics
  // and copied by every run, where a shared count would bounce between the
  // cores of a sweep's threads.
  static SharedString Immortal(std::string s) {
    return s.empty() ? SharedString() : Uncounted(new Rep(std::move(s)));
  }
  // The one immortal buffer of this text in the process: equal texts interned
  // compare by address. For the few values written onto every object of a
  // kind (the owner annotations patchNodes puts on each Node), so that each
  // later pass's check that they are there reads no string. Thread-safe;
  // never freed, so only for texts of which a run has a handful.
  static SharedString Interned(std::string_view s);
  // A string owned by this thread's StringArena, if one is installed (a run
  // installs one), else an ordinary one. For the uids and providerIDs a run
  // makes once per object and then copies into every version of its lists:
  // copies of an arena's string count nothing, so they neither read nor
  // write its buffer. The arena keeps one buffer per text, so a providerID
  // the cloud gave the Node and the same one a provider's controller worked
  // out compare by address.
  static SharedString Pinned(std::string s);
  SharedString(SharedString&& o) noexcept : bits_(std::exchange(o.bits_, 0)) {}
  SharedString& operator=(SharedString o) noexcept {
    std::swap(bits_, o.bits_);
    return *this;
  }
  ~SharedString() {
    if (Counted() && __gnu_cxx::__exchange_and_add_dispatch(&rep()->refs, -1) == 1) delete rep();
  }

  const std::string& str() const { return bits_ != 0 ? rep()->s : Empty(); }
  operator const std::string&() const { return str(); }  // NOLINT: implicit by design
  operator std::string_view() const { return str(); }    // NOLINT: implicit by design
  const char* data() const { return str().data(); }
  const char* c_str() const { return str().c_str(); }
  size_t size() const { return str().size(); }
  bool empty() const { return bits_ == 0; }
  // The shared buffer's address: copies share it, other strings never do
  // while this one lives. nullptr for the empty string.
  const void* identity() const { return rep(); }
  // HashBytes of the string, worked out once per buffer: every reconcile
  // hashes the same 10,000 providerIDs, and the cached value spares reading
  // their bytes. The cache is a relaxed atomic: copies on two threads may
  // both fill it, with the same value.
  uint64_t Hash() const {
    if (bits_ == 0) return HashBytes({});
    uint64_t h = rep()->hash.load(std::memory_order_relaxed);
    if (h == 0) {
      h = HashBytes(rep()->s);
      rep()->hash.store(h, std::memory_order_relaxed);
    }
    return h;
  }
  // Starts loading the string's header for a read a few steps later.
  void Prefetch() const {
    if (bits_ != 0) PrefetchRead(rep());
  }
  // The same for a copy a few steps later, which writes the count: nothing
  // for an uncounted string, whose copies touch no buffer.
  void PrefetchForCopy() const {
    if (Counted()) PrefetchRead(rep());
  }
  std::string::const_iterator begin() const { return str().begin(); }
  std::string::const_iterator end() const { return str().end(); }

  friend bool operator==(const SharedString& a, const SharedString& b) {
    return a.bits_ == b.bits_ || BytesEqual(a.str(), b.str());
  }
  friend bool operator==(const SharedString& a, const std::string& b) { return a.str() == b; }
  friend bool operator==(const SharedString& a, std::string_view b) { return a.str() == b; }
  friend bool operator==(const SharedString& a, const char* b) { return a.str() == b; }
  friend std::strong_ordering operator<=>(const SharedString& a, const SharedString& b) {
    return a.str() <=> b.str();
  }
  friend std::strong_ordering operator<=>(const SharedString& a, const std::string& b) {
    return a.str() <=> b;
  }
  friend std::strong_ordering operator<=>(const SharedString& a, std::string_view b) {
    return std::string_view(a.str()) <=> b;
  }
  friend std::ostream& operator<<(std::ostream& os, const SharedString& s) { return os << s.str(); }

 private:
  friend class StringArena;
  struct Rep {
    explicit Rep(std::string str) : s(std::move(str)) {}
    _Atomic_word refs = 1;          // __gnu_cxx dispatch: atomic only when threads exist
    std::atomic<uint64_t> hash{0};  // 0: not worked out yet
    const std::string s;
  };
  // The low bit of the Rep's address marks a string that is not counted
  // (immortal, interned or an arena's): telling needs no read of the Rep.
  static constexpr uintptr_t kUncounted = 1;
  static SharedString Uncounted(Rep* rep) {
    SharedString out;
    out.bits_ = reinterpret_cast<uintptr_t>(rep) | kUncounted;
    return out;
  }
  bool Counted() const { return bits_ != 0 && (bits_ & kUncounted) == 0; }
  Rep* rep() const { return reinterpret_cast<Rep*>(bits_ & ~kUncounted); }
  static const std::string& Empty() {
    static const std::string kEmpty;
    return kEmpty;
  }
  uintptr_t bits_ = 0;  // the Rep's address, tagged; 0 for the empty string
};

// Owns the strings SharedString::Pinned makes on its thread while it is the
// thread's innermost arena, and frees them all when it goes. Nothing may read
// such a string after that: a run installs one around its world, whose
// outputs hold std::strings only. Copies may still be destroyed later, as
// that touches nothing.
class StringArena {
 public:
  StringArena();
  ~StringArena();
  StringArena(const StringArena&) = delete;
  StringArena& operator=(const StringArena&) = delete;
  size_t size() const { return reps_.size(); }

 private:
  friend class SharedString;
  SharedString::Rep* Make(std::string s);
  // The Reps, side by side in the order they were made: a run pins the uids,
  // providerIDs and nodeRef names of its Nodes one after another, and every
  // reconcile reads them in nearly that order, so neighbours share lines
  // where one allocation each scattered them over the heap.
  std::pmr::monotonic_buffer_resource reps_memory_{64 * 1024};
  // Each Rep by its text (a view of the Rep's own bytes).
  std::unordered_map<std::string_view, SharedString::Rep*, StringHash, StringEq> reps_;
  StringArena* previous_;
};

// Concatenation reads as it does for the std::string a SharedString holds.
inline std::string operator+(std::string a, const SharedString& b) { return a.append(b.str()); }
inline std::string operator+(const char* a, const SharedString& b) { return a + b.str(); }
inline std::string operator+(const SharedString& a, std::string_view b) {
  return std::string(a.str()).append(b);
}
inline std::string operator+(const SharedString& a, const char* b) { return a.str() + b; }
inline std::string operator+(const SharedString& a, const std::string& b) { return a.str() + b; }
inline std::string operator+(const SharedString& a, const SharedString& b) {
  return a.str() + b.str();
}

}  // namespace mpsim
