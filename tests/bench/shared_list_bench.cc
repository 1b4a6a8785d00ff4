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

}  // namespace
}  // namespace mpsim
