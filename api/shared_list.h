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

#include "api/prefetch.h"

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
    p_->sorted = Order::kUnknown;  // the caller is about to change it
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

  struct Rep {
    Rep() = default;
    explicit Rep(std::vector<T> vec) : v(std::move(vec)) {}
    std::vector<T> v;
    Order sorted = Order::kUnknown;  // a cache of StrictlySorted, reset by Mutable
  };
  static const std::vector<T>& Empty() {
    static const std::vector<T> kEmpty;
    return kEmpty;
  }
  std::shared_ptr<Rep> p_;
};

}  // namespace mpsim
