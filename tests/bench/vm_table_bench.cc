// The vmss model's VMs by instance ID: VmTable (one array, an ID its index)
// against the std::map it replaced, over a scale set's life as the model
// lives it: VMs added in ID order, each found by ID as its create finishes
// and as its delete starts, the set listed in ID order by CAPZ's pass, and
// every VM erased in a shuffled order.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "models/vmss/virtual_machine_scale_set.h"
#include "models/vmss/vm_table.h"

namespace mpsim {
namespace {

// The model's reads of one VM: its state and its providerID's length, as a
// LIST of the set reads them.
uint64_t ReadVm(const vmss::VirtualMachine& vm) {
  return static_cast<uint64_t>(vm.state) + vm.provider_id.size();
}

template <class Table, class AddFn>
void ScaleSetLife(benchmark::State& state, AddFn add) {
  const int n = static_cast<int>(state.range(0));
  std::vector<uint64_t> shuffled(n);
  for (int i = 0; i < n; ++i) shuffled[i] = static_cast<uint64_t>(i) + 1;
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937_64(5));
  uint64_t read = 0;
  for (auto _ : state) {
    Table vms;
    for (uint64_t id = 1; id <= static_cast<uint64_t>(n); ++id) add(vms, id).id = id;
    for (uint64_t id : shuffled) vms.find(id)->second.state = vmss::VmState::kSucceeded;
    for (const auto& [id, vm] : vms) read += ReadVm(vm);
    for (uint64_t id : shuffled) read += ReadVm(vms.find(id)->second);
    for (uint64_t id : shuffled) vms.erase(vms.find(id));
    if (!vms.empty()) state.SkipWithError("VMs left");
  }
  benchmark::DoNotOptimize(read);
  state.counters["ns/VM"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * n,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_VmTableLife(benchmark::State& state) {
  ScaleSetLife<vmss::VmTable<vmss::VirtualMachine>>(
      state, [](vmss::VmTable<vmss::VirtualMachine>& t, uint64_t id) -> vmss::VirtualMachine& {
        return t.Add(id);
      });
}
void BM_VmMapLife(benchmark::State& state) {
  using Map = std::map<uint64_t, vmss::VirtualMachine>;
  ScaleSetLife<Map>(state, [](Map& m, uint64_t id) -> vmss::VirtualMachine& {
    return m.emplace_hint(m.end(), id, vmss::VirtualMachine{})->second;
  });
}
BENCHMARK(BM_VmTableLife)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_VmMapLife)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace mpsim
