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
#include <type_traits>
#include <utility>
#include <vector>

#include "util/shared_string.h"

namespace mpsim {

// Reads and writes like the std::map<std::string, std::string> it replaces:
// iteration in key order, find/count/at/operator[]/erase/try_emplace.
// Inserting or erasing moves the later entries (maps here hold a handful).
// Unlike std::map, any insertion or erasure invalidates every iterator.
// Keys and values are SharedStrings: copies of an object share their buffers,
// and one inserted from a SharedString (an interned constant such as a Cluster
// API annotation, or patchNodes' interned owner values) compares equal to it
// by address, without reading it. An entry is 16 bytes.
class StringMap {
 public:
  using key_type = SharedString;
  using mapped_type = SharedString;
  using value_type = std::pair<SharedString, SharedString>;
  using Entries = std::vector<value_type>;
  using iterator = Entries::iterator;
  using const_iterator = Entries::const_iterator;
  using size_type = size_t;

  StringMap() = default;
  StringMap(std::initializer_list<value_type> entries)
      : StringMap(entries.begin(), entries.end()) {}
  template <class It>
  StringMap(It first, It last) {
    for (; first != last; ++first) (*this)[first->first] = first->second;
  }
  // From the maps that the scenario and the protos carry.
  StringMap(const std::map<std::string, std::string>& m) {  // NOLINT: implicit by design
    entries_.reserve(m.size());
    for (const auto& [k, v] : m) entries_.emplace_back(SharedString(k), SharedString(v));
  }

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
    return it != end() && std::string_view(it->first) == key ? it : end();
  }
  iterator find(std::string_view key) {
    auto it = lower_bound(key);
    return it != end() && std::string_view(it->first) == key ? it : end();
  }
  // find, trying first the entry that shares `key`'s buffer: a selector's
  // interned label keys (PoolSelector) are the very buffers of the labels
  // they were copied onto, and a List tests them on every object.
  const_iterator FindShared(const SharedString& key) const {
    if (key.identity() != nullptr) {
      for (auto it = begin(); it != end(); ++it) {
        if (it->first.identity() == key.identity()) return it;
      }
    }
    return find(std::string_view(key));
  }
  // Whether every pair of `want` is here with an equal value: whether
  // adding `want`'s pairs would leave the map as it is. Both maps are
  // sorted, so one walk serves every key; a key that shares its buffer with
  // the next entry here (interned constants) is matched without reading it.
  bool Covers(const StringMap& want) const {
    auto it = begin();
    for (const auto& [k, v] : want) {
      if (it == end() || it->first != k) {
        int c = -1;
        while (it != end() && (c = std::string_view(it->first).compare(k)) < 0) ++it;
        if (it == end() || c != 0) return false;
      }
      if (it->second != v) return false;
      ++it;
    }
    return true;
  }
  size_t count(std::string_view key) const { return find(key) != end() ? 1 : 0; }
  bool contains(std::string_view key) const { return find(key) != end(); }

  // REQUIRES (as std::map::at): the key is present, else std::out_of_range.
  const SharedString& at(std::string_view key) const {
    auto it = find(key);
    if (it == end()) throw std::out_of_range("StringMap::at: no such key");
    return it->second;
  }
  SharedString& at(std::string_view key) {
    return const_cast<SharedString&>(std::as_const(*this).at(key));
  }
  SharedString& operator[](std::string_view key) { return try_emplace(key).first->second; }
  SharedString& operator[](const SharedString& key) { return try_emplace(key).first->second; }
  SharedString& operator[](const std::string& key) { return (*this)[std::string_view(key)]; }
  SharedString& operator[](const char* key) { return (*this)[std::string_view(key)]; }

  template <class... V>
  std::pair<iterator, bool> try_emplace(std::string_view key, V&&... value) {
    return Emplace(
        key, [key] { return SharedString(key); }, std::forward<V>(value)...);
  }
  template <class... V>
  std::pair<iterator, bool> try_emplace(const std::string& key, V&&... value) {
    return try_emplace(std::string_view(key), std::forward<V>(value)...);
  }
  template <class... V>
  std::pair<iterator, bool> try_emplace(const char* key, V&&... value) {
    return try_emplace(std::string_view(key), std::forward<V>(value)...);
  }
  // Keeps `key`'s buffer when the key is new.
  template <class... V>
  std::pair<iterator, bool> try_emplace(const SharedString& key, V&&... value) {
    return Emplace(
        key, [&key] { return key; }, std::forward<V>(value)...);
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
    if constexpr (std::is_same_v<std::decay_t<K>, SharedString>) {
      return try_emplace(static_cast<const SharedString&>(key), std::forward<V>(value));
    } else {
      return try_emplace(std::string_view(key), std::forward<V>(value));
    }
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
  template <class MakeKey, class... V>
  std::pair<iterator, bool> Emplace(std::string_view key, MakeKey make_key, V&&... value) {
    auto it = lower_bound(key);
    if (it != end() && std::string_view(it->first) == key) return {it, false};
    it = entries_.emplace(it, std::piecewise_construct, std::forward_as_tuple(make_key()),
                          std::forward_as_tuple(std::forward<V>(value)...));
    return {it, true};
  }
  struct KeyLess {
    bool operator()(const value_type& e, std::string_view key) const {
      return std::string_view(e.first) < key;
    }
  };
  Entries entries_;  // sorted by key, keys unique
};

}  // namespace mpsim
