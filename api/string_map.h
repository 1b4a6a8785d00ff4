// Labels and annotations: a string-to-string map kept as one sorted vector.
// Every MachinePool reconcile reads four annotations of each of 10,000 Nodes;
// one buffer per map costs a cache line or two where a tree costs one per key.
#pragma once

#include <algorithm>
#include <compare>
#include <initializer_list>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mpsim {

// Reads and writes like the std::map<std::string, std::string> it replaces:
// iteration in key order, find/count/at/operator[]/erase/try_emplace.
// Inserting or erasing moves the later entries (maps here hold a handful).
// Unlike std::map, any insertion or erasure invalidates every iterator.
class StringMap {
 public:
  using key_type = std::string;
  using mapped_type = std::string;
  using value_type = std::pair<std::string, std::string>;
  using iterator = std::vector<value_type>::iterator;
  using const_iterator = std::vector<value_type>::const_iterator;
  using size_type = size_t;

  StringMap() = default;
  StringMap(std::initializer_list<value_type> entries)
      : StringMap(entries.begin(), entries.end()) {}
  template <class It>
  StringMap(It first, It last) {
    for (; first != last; ++first) insert_or_assign(first->first, first->second);
  }
  // From the maps that the scenario and the protos carry.
  StringMap(const std::map<std::string, std::string>& m)  // NOLINT: implicit by design
      : entries_(m.begin(), m.end()) {}

  iterator begin() { return entries_.begin(); }
  iterator end() { return entries_.end(); }
  const_iterator begin() const { return entries_.begin(); }
  const_iterator end() const { return entries_.end(); }
  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  void clear() { entries_.clear(); }

  const_iterator lower_bound(std::string_view key) const {
    return std::lower_bound(begin(), end(), key, KeyLess{});
  }
  iterator lower_bound(std::string_view key) {
    return std::lower_bound(begin(), end(), key, KeyLess{});
  }
  const_iterator find(std::string_view key) const {
    auto it = lower_bound(key);
    return it != end() && it->first == key ? it : end();
  }
  iterator find(std::string_view key) {
    auto it = lower_bound(key);
    return it != end() && it->first == key ? it : end();
  }
  size_t count(std::string_view key) const { return find(key) != end() ? 1 : 0; }
  bool contains(std::string_view key) const { return find(key) != end(); }

  // REQUIRES (as std::map::at): the key is present, else std::out_of_range.
  const std::string& at(std::string_view key) const {
    auto it = find(key);
    if (it == end()) throw std::out_of_range("StringMap::at: no such key");
    return it->second;
  }
  std::string& at(std::string_view key) {
    return const_cast<std::string&>(std::as_const(*this).at(key));
  }
  std::string& operator[](std::string_view key) { return try_emplace(key).first->second; }

  template <class... V>
  std::pair<iterator, bool> try_emplace(std::string_view key, V&&... value) {
    auto it = lower_bound(key);
    if (it != end() && it->first == key) return {it, false};
    it = entries_.emplace(it, std::piecewise_construct, std::forward_as_tuple(key),
                          std::forward_as_tuple(std::forward<V>(value)...));
    return {it, true};
  }
  template <class V>
  std::pair<iterator, bool> insert_or_assign(std::string_view key, V&& value) {
    auto [it, fresh] = try_emplace(key);
    it->second = std::forward<V>(value);
    return {it, fresh};
  }
  std::pair<iterator, bool> insert(const value_type& kv) {
    return try_emplace(kv.first, kv.second);
  }
  template <class K, class V>
  std::pair<iterator, bool> emplace(K&& key, V&& value) {
    return try_emplace(std::string_view(key), std::forward<V>(value));
  }

  size_t erase(std::string_view key) {
    auto it = find(key);
    if (it == end()) return 0;
    entries_.erase(it);
    return 1;
  }
  iterator erase(const_iterator it) { return entries_.erase(it); }

  bool operator==(const StringMap&) const = default;
  auto operator<=>(const StringMap& o) const { return entries_ <=> o.entries_; }

 private:
  struct KeyLess {
    bool operator()(const value_type& e, std::string_view key) const { return e.first < key; }
  };
  std::vector<value_type> entries_;  // sorted by key, keys unique
};

}  // namespace mpsim
