// A list that copies in O(1): copies share one vector until one of them is
// changed. API objects carry 10k-entry lists that are copied far more often
// (cache reads, patch bases, store commits) than they are changed.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "util/look_ahead_cursor.h"
#include "util/prefetch.h"

namespace mpsim {

// Reads behave like `const std::vector<T>`. Writes go through Mutable(),
// which first detaches this list from any copy that shares it; a reference
// from Mutable() must not be kept across a copy of the list.
// Not thread-safe across copies: a list and its copies stay on one thread.
template <class T>
class SharedList {
 public:
  using value_type = T;
  using size_type = std::size_t;
  using const_iterator = typename std::vector<T>::const_iterator;
  using iterator = const_iterator;
  using const_reference = const T&;
  using reference = const T&;

  SharedList() = default;
  SharedList(std::vector<T> v)  // NOLINT: implicit, as a vector is a list
      : p_(v.empty() ? nullptr : std::make_shared<Rep>(std::move(v))) {}
  SharedList(std::initializer_list<T> l) : SharedList(std::vector<T>(l)) {}
  template <class It>
  requires(!std::is_convertible_v<It, T>) SharedList(It first, It last)
      : SharedList(std::vector<T>(first, last)) {}
  // From a vector of another element type that converts (std::string into
  // SharedString).
  template <class U>
  requires(!std::is_same_v<U, T> && std::is_convertible_v<const U&, T>)
      SharedList(const std::vector<U>& v)  // NOLINT: implicit, as from std::vector<T>
      : SharedList(v.begin(), v.end()) {}

  const std::vector<T>& vec() const { return p_ ? p_->v : Empty(); }
  operator const std::vector<T>&() const { return vec(); }  // NOLINT: implicit by design

  const_iterator begin() const { return vec().begin(); }
  const_iterator end() const { return vec().end(); }
  const_iterator cbegin() const { return vec().begin(); }
  const_iterator cend() const { return vec().end(); }
  size_type size() const { return p_ ? p_->v.size() : 0; }
  bool empty() const { return size() == 0; }
  const T& operator[](size_type i) const { return p_->v[i]; }
  const T& at(size_type i) const { return vec().at(i); }
  const T& front() const { return p_->v.front(); }
  const T& back() const { return p_->v.back(); }

  // The vector to change in place, no longer shared with any copy.
  std::vector<T>& Mutable() {
    if (!p_) {
      p_ = std::make_shared<Rep>();
    } else if (p_.use_count() > 1) {
      p_ = std::make_shared<Rep>(p_->v);
    }
    // The caller is about to change it: what was worked out from it goes.
    p_->sorted = Order::kUnknown;
    p_->total = kNoTotal;
    p_->derived.reset();
    ++p_->generation;
    return p_->v;
  }
  void push_back(T v) { Mutable().push_back(std::move(v)); }
  template <class... A>
  T& emplace_back(A&&... a) {
    return Mutable().emplace_back(std::forward<A>(a)...);
  }
  void clear() { p_.reset(); }

  // Whether key(entry) strictly increases along the list. Worked out once
  // per version of the list and kept with it, since every version is diffed
  // by several watchers. The answer is cached without the key, so a list
  // type must always be asked with the same key.
  template <class Key>
  bool StrictlySorted(Key key) const {
    if (!p_) return true;
    if (p_->sorted == Order::kUnknown) p_->sorted = CheckOrder(p_->v, key);
    return p_->sorted == Order::kStrictlySorted;
  }

  // StrictlySorted for a version made from `base` by taking entries out and
  // putting others in. Two neighbours here that were neighbours in `base`,
  // known strictly sorted, are in order without a look at their keys, so a
  // list that grew by a few entries is settled by reading the two vectors in
  // turn: at 100,000 entries the keys (names in buffers of their own) were
  // a cache miss or two each. Same answer as StrictlySorted, kept the same way.
  // REQUIRES: same(x, y) implies key(x) == key(y).
  template <class Key, class Same>
  bool StrictlySortedFrom(const SharedList& base, Key key, Same same) const {
    if (!p_) return true;
    if (p_->sorted == Order::kUnknown) {
      p_->sorted = base.p_ && base.StrictlySorted(key)
                       ? CheckOrderFrom(p_->v, base.p_->v, key, same)
                       : CheckOrder(p_->v, key);
    }
    return p_->sorted == Order::kStrictlySorted;
  }

  // A list whose maker knows it strictly sorted by `key` (the test cloud
  // lists its instances in name order), spared the check; debug builds, and
  // so the sanitizer run of the tests, check the claim anyway.
  template <class Key>
  static SharedList KnownStrictlySorted(std::vector<T> v, [[maybe_unused]] Key key) {
    SharedList l(std::move(v));
    if (l.p_) l.p_->sorted = Order::kStrictlySorted;
#ifndef NDEBUG
    if (l.p_) l.p_->sorted = Order::kUnknown;
    assert(l.StrictlySorted(key));
#endif
    return l;
  }

  // The sum of size(entry) over the list, worked out once per version and
  // kept with it. As with StrictlySorted, a list type must always be asked
  // with the same size.
  template <class Size>
  uint64_t Total(Size size) const {
    if (!p_) return 0;
    if (p_->total == kNoTotal) {
      uint64_t sum = 0;
      for (const T& x : p_->v) sum += size(x);
      p_->total = sum;
    }
    return p_->total;
  }

  // Total for a version made from `base` by taking entries out and putting
  // others in: base's total, less the entries passed over in base, plus
  // those of this version found nowhere in it. The common head and tail are
  // skipped in one tight loop each; the rest is walked as StrictlySortedFrom
  // walks. An entry kept from base is never read, so a write that adds a few
  // entries to a 10,000-entry list reads a few. Same answer as Total.
  // REQUIRES: same(x, y) implies size(x) == size(y).
  template <class Size, class Same>
  uint64_t TotalFrom(const SharedList& base, Size size, Same same) const {
    if (!p_) return 0;
    if (p_ == base.p_ || !base.p_) return Total(size);
    if (p_->total != kNoTotal) return p_->total;
    const std::vector<T>& v = p_->v;
    const std::vector<T>& b = base.p_->v;
    uint64_t sum = base.Total(size);
    size_t head = 0, tail = 0;
    while (head < v.size() && head < b.size() && same(v[head], b[head])) ++head;
    while (tail < v.size() - head && tail < b.size() - head &&
           same(v[v.size() - 1 - tail], b[b.size() - 1 - tail])) {
      ++tail;
    }
    const size_t b_end = b.size() - tail;
    size_t passed = head;  // base entries before it were found or taken out
    for (size_t i = head; i < v.size() - tail; ++i) {
      if (passed < b_end && same(v[i], b[passed])) {  // kept, in step: the usual case
        ++passed;
        continue;
      }
      const size_t window_end = std::min(b_end, passed + kBaseWindow);
      size_t k = passed + 1;
      while (k < window_end && !same(v[i], b[k])) ++k;
      if (k >= window_end) {  // found nowhere near: put in
        sum += size(v[i]);
        continue;
      }
      for (; passed < k; ++passed) sum -= size(b[passed]);
      passed = k + 1;
    }
    for (; passed < b_end; ++passed) sum -= size(b[passed]);
    p_->total = sum;
    return sum;
  }

  // compute(), a value worked out from this version and `base` (the sets
  // of names a write added and removed), kept with this version: each
  // MachinePool write's nodeRefs are diffed against the last version by
  // every watcher in turn (the informer's index, the pool observer), and
  // only the first need do the work. `tag` names the question; a version
  // keeps one answer, good while `base` is the version it was worked out
  // against. An empty list keeps nothing.
  template <class V, class F>
  std::shared_ptr<const V> Derived(const void* tag, const SharedList& base, F compute) const {
    if (!p_) return std::make_shared<const V>(compute());
    const Derivation* d = p_->derived.get();
    if (d != nullptr && d->tag == tag && d->Against(base.p_)) {
      return std::static_pointer_cast<const V>(d->value);
    }
    auto value = std::make_shared<const V>(compute());
    p_->derived = std::make_unique<Derivation>(
        Derivation{tag, base.p_, base.p_ ? base.p_->generation : 0, base.p_ == nullptr, value});
    return value;
  }

  // Lists that share storage are equal without a look at their entries.
  friend bool operator==(const SharedList& a, const SharedList& b) {
    return a.p_ == b.p_ || a.vec() == b.vec();
  }
  template <class U>
  friend bool operator==(const SharedList& a, const std::vector<U>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  enum class Order : int8_t { kUnknown, kStrictlySorted, kNot };
  static constexpr uint64_t kNoTotal = ~uint64_t{0};

  // A key kept apart from the list (a shared string's buffer) is loaded a
  // few entries ahead, so that the misses of a 100,000-entry list overlap.
  template <class Key>
  static Order CheckOrder(const std::vector<T>& v, Key key) {
    for (size_t i = 0; i + 1 < v.size(); ++i) {
      if constexpr (std::is_lvalue_reference_v<decltype(key(v[i]))>) {
        if (i + kPrefetchAhead < v.size()) PrefetchRead(&key(v[i + kPrefetchAhead]));
      }
      if (!(key(v[i]) < key(v[i + 1]))) return Order::kNot;
    }
    return Order::kStrictlySorted;
  }

  // Walks `v` beside the sorted `b`, finding each entry of `v` among the
  // next few of `b` not yet passed: a run of entries kept from `b` moves in
  // step, one taken out is skipped, one put in is found nowhere. Only the
  // order of a pair that were not neighbours in `b` is read from the keys.
  static constexpr size_t kBaseWindow = 4;
  template <class Key, class Same>
  static Order CheckOrderFrom(const std::vector<T>& v, const std::vector<T>& b, Key key,
                              Same same) {
    using Cursor = LookAheadCursor<T>;
    Cursor in_base(b);
    auto find = [&](const T& x) {
      return in_base.Find(kBaseWindow, [&](const T& y) { return same(x, y); });
    };
    size_t at = v.empty() ? Cursor::kNone : find(v[0]);
    for (size_t i = 0; i + 1 < v.size(); ++i) {
      const size_t next = find(v[i + 1]);
      const bool neighbours_in_base = at != Cursor::kNone && next == at + 1;
      if (!neighbours_in_base && !(key(v[i]) < key(v[i + 1]))) return Order::kNot;
      at = next;
    }
    return Order::kStrictlySorted;
  }

  struct Rep;
  // What Derived keeps. The weak reference keeps the base's address from
  // being reused by another version while this is kept, and the generation
  // tells a base changed in place by Mutable.
  struct Derivation {
    const void* tag;
    std::weak_ptr<Rep> base;
    uint64_t base_generation;
    bool base_empty;
    std::shared_ptr<const void> value;

    bool Against(const std::shared_ptr<Rep>& b) const {
      if (b == nullptr) return base_empty;
      const bool same = !base_empty && !base.owner_before(b) && !b.owner_before(base);
      return same && base_generation == b->generation;
    }
  };
  struct Rep {
    Rep() = default;
    explicit Rep(std::vector<T> vec) : v(std::move(vec)) {}
    std::vector<T> v;
    Order sorted = Order::kUnknown;       // a cache of StrictlySorted, reset by Mutable
    uint64_t total = kNoTotal;            // a cache of Total, reset by Mutable
    uint64_t generation = 0;              // counts the changes made in place
    std::unique_ptr<Derivation> derived;  // Derived's answer, reset by Mutable
  };
  static const std::vector<T>& Empty() {
    static const std::vector<T> kEmpty;
    return kEmpty;
  }
  std::shared_ptr<Rep> p_;
};

}  // namespace mpsim
