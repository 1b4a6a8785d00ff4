// Copies of an object holding a 10,000-entry providerIDList, as cache reads,
// patch bases and store commits make them: the list as a copy-on-write
// SharedList against the same entries in a std::vector, in one run. The
// entries are pinned, as a run's providerIDs are, so that the vector's copy
// pays for its memory and its walk, not for counts a run never takes.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "api/objects.h"
#include "util/shared_list.h"
#include "util/shared_string.h"

namespace mpsim {
namespace {

std::vector<SharedString> SharedListBenchIds(int n) {
  std::vector<SharedString> ids;
  for (int i = 0; i < n; ++i)
    ids.push_back(SharedString::Pinned("test://mp-0-" + std::to_string(100000 + i)));
  return ids;
}

// The shape that matters: a few scalars beside the list.
template <class List>
struct ListHolder {
  std::string name;
  int32_t replicas = 0;
  List ids;
};

template <class List>
void CopyLoop(benchmark::State& state) {
  StringArena strings;
  const ListHolder<List> original{
      .name = "mp-0",
      .replicas = 1,
      .ids = List(SharedListBenchIds(static_cast<int>(state.range(0))))};
  for (auto _ : state) {
    ListHolder<List> copy = original;
    benchmark::DoNotOptimize(copy);
  }
  state.SetItemsProcessed(state.iterations());
}

// Equal copies, as a store's no-op test and an informer's Same() compare them.
template <class List>
void CompareLoop(benchmark::State& state) {
  StringArena strings;
  const ListHolder<List> original{
      .name = "mp-0",
      .replicas = 1,
      .ids = List(SharedListBenchIds(static_cast<int>(state.range(0))))};
  const ListHolder<List> copy = original;
  for (auto _ : state) {
    // Hidden from the optimizer, so that each pass compares anew.
    const ListHolder<List>* a = &copy;
    benchmark::DoNotOptimize(a);
    bool same = a->ids == original.ids;
    benchmark::DoNotOptimize(same);
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_CopySharedList(benchmark::State& state) { CopyLoop<ProviderIDList>(state); }
void BM_CopyVectorList(benchmark::State& state) { CopyLoop<std::vector<SharedString>>(state); }
void BM_CompareSharedListCopies(benchmark::State& state) { CompareLoop<ProviderIDList>(state); }
void BM_CompareVectorListCopies(benchmark::State& state) {
  CompareLoop<std::vector<SharedString>>(state);
}
BENCHMARK(BM_CopySharedList)->Arg(10000);
BENCHMARK(BM_CopyVectorList)->Arg(10000);
BENCHMARK(BM_CompareSharedListCopies)->Arg(10000);
BENCHMARK(BM_CompareVectorListCopies)->Arg(10000);

// A new version of the list built entry by entry, as a reconcile builds
// providerIDList from the cloud's instances: each entry's copy of a run's
// pinned string (SharedString::Pinned, owned by the run's StringArena)
// touches no buffer, where a counted one writes its buffer's count.
void CopyEntriesLoop(benchmark::State& state, bool pinned) {
  StringArena strings;
  const int n = static_cast<int>(state.range(0));
  std::vector<SharedString> ids;
  for (int i = 0; i < n; ++i) {
    std::string id = "test://mp-0-" + std::to_string(100000 + i);
    ids.push_back(pinned ? SharedString::Pinned(std::move(id)) : SharedString(std::move(id)));
  }
  for (auto _ : state) {
    std::vector<SharedString> version;
    version.reserve(ids.size());
    for (const SharedString& id : ids) version.push_back(id);
    benchmark::DoNotOptimize(version.data());
  }
  state.SetItemsProcessed(state.iterations() * n);
}
void BM_CopyPinnedEntries(benchmark::State& state) { CopyEntriesLoop(state, true); }
void BM_CopyCountedEntries(benchmark::State& state) { CopyEntriesLoop(state, false); }
BENCHMARK(BM_CopyPinnedEntries)->Arg(10000)->Arg(100000);
BENCHMARK(BM_CopyCountedEntries)->Arg(10000)->Arg(100000);

// A constant held in a static and copied onto every object of a kind (a
// nodeRef's apiVersion and kind), by the threads of a sweep at once: an
// immortal string's copies write nothing, a counted one's bounce its
// count's line between the cores.
const SharedString& ImmortalConstant() {
  static const SharedString s = SharedString::Immortal("v1");
  return s;
}
const SharedString& CountedConstant() {
  static const SharedString s("v1");
  return s;
}
void CopyConstantLoop(benchmark::State& state, const SharedString& constant) {
  for (auto _ : state) {
    SharedString copy = constant;
    benchmark::DoNotOptimize(copy);
  }
}
void BM_CopyImmortalConstant(benchmark::State& state) {
  CopyConstantLoop(state, ImmortalConstant());
}
void BM_CopyCountedConstant(benchmark::State& state) { CopyConstantLoop(state, CountedConstant()); }
BENCHMARK(BM_CopyImmortalConstant)->Threads(2);
BENCHMARK(BM_CopyCountedConstant)->Threads(2);

}  // namespace
}  // namespace mpsim
