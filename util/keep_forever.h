// Objects a process leaves for the kernel to reclaim at exit: never freed,
// yet reachable, so a leak checker does not count them.
#pragma once

#include <memory>
#include <utility>
#include <vector>

namespace mpsim {

// Takes `object` and never destroys it, nor the list that holds it.
template <class T>
void KeepForever(std::unique_ptr<T> object) {
  static auto* kept = new std::vector<std::unique_ptr<T>>;
  kept->push_back(std::move(object));
}

}  // namespace mpsim
