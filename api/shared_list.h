// A list that copies in O(1): copies share one vector until one of them is
// changed. API objects carry 10k-entry lists that are copied far more often
// (cache reads, patch bases, store commits) than they are changed.
#pragma once

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

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
      : p_(v.empty() ? nullptr : std::make_shared<std::vector<T>>(std::move(v))) {}
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

  const std::vector<T>& vec() const { return p_ ? *p_ : Empty(); }
  operator const std::vector<T>&() const { return vec(); }  // NOLINT: implicit by design

  const_iterator begin() const { return vec().begin(); }
  const_iterator end() const { return vec().end(); }
  const_iterator cbegin() const { return vec().begin(); }
  const_iterator cend() const { return vec().end(); }
  size_type size() const { return p_ ? p_->size() : 0; }
  bool empty() const { return size() == 0; }
  const T& operator[](size_type i) const { return (*p_)[i]; }
  const T& at(size_type i) const { return vec().at(i); }
  const T& front() const { return p_->front(); }
  const T& back() const { return p_->back(); }

  // The vector to change in place, no longer shared with any copy.
  std::vector<T>& Mutable() {
    if (!p_) {
      p_ = std::make_shared<std::vector<T>>();
    } else if (p_.use_count() > 1) {
      p_ = std::make_shared<std::vector<T>>(*p_);
    }
    return *p_;
  }
  void push_back(T v) { Mutable().push_back(std::move(v)); }
  template <class... A>
  T& emplace_back(A&&... a) {
    return Mutable().emplace_back(std::forward<A>(a)...);
  }
  void clear() { p_.reset(); }

  // Lists that share storage are equal without a look at their entries.
  friend bool operator==(const SharedList& a, const SharedList& b) {
    return a.p_ == b.p_ || a.vec() == b.vec();
  }
  template <class U>
  friend bool operator==(const SharedList& a, const std::vector<U>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  static const std::vector<T>& Empty() {
    static const std::vector<T> kEmpty;
    return kEmpty;
  }
  std::shared_ptr<std::vector<T>> p_;
};

}  // namespace mpsim
