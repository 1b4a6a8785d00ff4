#include "util/shared_string.h"

#include <functional>
#include <mutex>
#include <new>
#include <string>
#include <unordered_map>

namespace mpsim {

SharedString SharedString::Interned(std::string_view s) {
  static std::mutex mu;
  // Reachable until exit (never destroyed, so no order-of-destruction issue
  // with strings copied into statics elsewhere).
  static auto* table =
      new std::unordered_map<std::string, SharedString, StringHash, std::equal_to<>>;
  std::lock_guard<std::mutex> lock(mu);
  auto it = table->find(s);
  if (it == table->end()) it = table->emplace(std::string(s), Immortal(std::string(s))).first;
  return it->second;
}

namespace {
thread_local StringArena* current_arena = nullptr;
}  // namespace

SharedString SharedString::Pinned(std::string s) {
  if (current_arena == nullptr || s.empty()) return SharedString(std::move(s));
  auto& reps = current_arena->reps_;
  auto it = reps.find(s);
  if (it == reps.end()) {
    Rep* rep = current_arena->Make(std::move(s));
    it = reps.emplace(rep->s, rep).first;
  }
  return Uncounted(it->second);
}

StringArena::StringArena() : previous_(current_arena) { current_arena = this; }

StringArena::~StringArena() {
  current_arena = previous_;
  // The memory goes with reps_memory_; each Rep's text may own a buffer.
  for (const auto& [text, rep] : reps_) rep->~Rep();
}

SharedString::Rep* StringArena::Make(std::string s) {
  void* at = reps_memory_.allocate(sizeof(SharedString::Rep), alignof(SharedString::Rep));
  return new (at) SharedString::Rep(std::move(s));
}

}  // namespace mpsim
