// The scale set's VMs by instance ID, in ID order, with a std::map's reads.
// IDs are handed out in creation order and never reused (Uniform
// orchestration), so a VM's ID is its place in one array: a lookup is an
// index, not a descent through 17 levels of tree nodes at 100,000 VMs, and a
// LIST walks the array in order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <utility>

namespace mpsim::vmss {

template <class VM>
class VmTable {
  using Slot = std::optional<std::pair<const uint64_t, VM>>;

  // Visits the occupied slots, in ID order.
  template <bool kConst>
  class Iter {
   public:
    using iterator_category = std::bidirectional_iterator_tag;
    using value_type = std::pair<const uint64_t, VM>;
    using difference_type = std::ptrdiff_t;
    using pointer = std::conditional_t<kConst, const value_type*, value_type*>;
    using reference = std::conditional_t<kConst, const value_type&, value_type&>;
    using Slots = std::conditional_t<kConst, const std::deque<Slot>, std::deque<Slot>>;

    Iter() = default;
    Iter(Slots* slots, size_t at) : slots_(slots), at_(at) {}
    operator Iter<true>() const { return {slots_, at_}; }  // NOLINT: as std::map's

    reference operator*() const { return *(*slots_)[at_]; }
    pointer operator->() const { return &*(*slots_)[at_]; }
    Iter& operator++() {
      ++at_;
      while (at_ < slots_->size() && !(*slots_)[at_]) ++at_;
      return *this;
    }
    Iter operator++(int) {
      Iter was = *this;
      ++*this;
      return was;
    }
    Iter& operator--() {  // REQUIRES: an occupied slot before this one
      --at_;
      while (!(*slots_)[at_]) --at_;
      return *this;
    }
    Iter operator--(int) {
      Iter was = *this;
      --*this;
      return was;
    }
    friend bool operator==(const Iter& a, const Iter& b) { return a.at_ == b.at_; }

   private:
    template <class>
    friend class VmTable;
    Slots* slots_ = nullptr;
    size_t at_ = 0;
  };

 public:
  using value_type = std::pair<const uint64_t, VM>;
  using iterator = Iter<false>;
  using const_iterator = Iter<true>;
  using reverse_iterator = std::reverse_iterator<iterator>;

  // A new VM with this ID. REQUIRES: id is above every ID added before.
  VM& Add(uint64_t id) {
    if (slots_.empty()) first_id_ = id;
    while (first_id_ + slots_.size() < id) slots_.emplace_back();  // IDs skipped: none here
    ++size_;
    return slots_.emplace_back(std::in_place, id, VM{})->second;
  }
  // Removes the VM; the IDs before the oldest VM left are forgotten.
  void erase(iterator it) {
    slots_[it.at_].reset();
    --size_;
    while (!slots_.empty() && !slots_.front()) slots_.pop_front(), ++first_id_;
  }

  iterator find(uint64_t id) { return iterator(&slots_, Index(id)); }
  const_iterator find(uint64_t id) const { return const_iterator(&slots_, Index(id)); }
  size_t count(uint64_t id) const { return Index(id) == slots_.size() ? 0 : 1; }
  const VM& at(uint64_t id) const {
    const size_t i = Index(id);
    if (i == slots_.size()) throw std::out_of_range("VmTable::at: no VM with this ID");
    return slots_[i]->second;
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  iterator begin() { return iterator(&slots_, 0); }  // the front slot is never empty
  iterator end() { return iterator(&slots_, slots_.size()); }
  const_iterator begin() const { return const_iterator(&slots_, 0); }
  const_iterator end() const { return const_iterator(&slots_, slots_.size()); }
  reverse_iterator rbegin() { return reverse_iterator(end()); }
  reverse_iterator rend() { return reverse_iterator(begin()); }

 private:
  // The slot of a present VM with this ID, else slots_.size() (end).
  size_t Index(uint64_t id) const {
    if (id < first_id_ || id - first_id_ >= slots_.size()) return slots_.size();
    const auto i = static_cast<size_t>(id - first_id_);
    return slots_[i] ? i : slots_.size();
  }

  std::deque<Slot> slots_;  // slots_[i] holds ID first_id_ + i, or nothing
  uint64_t first_id_ = 0;
  size_t size_ = 0;
};

}  // namespace mpsim::vmss
