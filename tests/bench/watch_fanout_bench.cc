// The API server's watch fan-out: one write to a store of N Nodes delivered,
// after the informer lag, to K informers (one per controller manager).
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "sim/api_server.h"
#include "sim/informer.h"

namespace mpsim {
namespace {

void BM_WatchFanOut(benchmark::State& state) {
  const int informers = static_cast<int>(state.range(0));
  const int nodes = static_cast<int>(state.range(1));
  EventLoop loop;
  ApiServer server(&loop);
  std::vector<std::unique_ptr<Informer<Node>>> infs;
  uint64_t delivered = 0;
  for (int i = 0; i < informers; ++i) {
    infs.push_back(std::make_unique<Informer<Node>>(&loop, &server.Store<Node>(),
                                                    DistSpec::Constant(10 * kMillisecond),
                                                    StreamFor(1, "inf" + std::to_string(i))));
    infs.back()->AddHandler([&delivered](const WatchEvent<Node>&) { ++delivered; });
  }
  for (int i = 0; i < nodes; ++i) {
    Node n;
    n.meta.name = "node-" + std::to_string(i);
    if (!server.Store<Node>().Create(&n).ok()) state.SkipWithError("create failed");
  }
  Time horizon = kSecond;
  loop.Run(horizon, 100'000'000);
  delivered = 0;
  int next = 0;
  uint64_t writes = 0;
  for (auto _ : state) {
    Node n;
    if (!server.Store<Node>().Get({"", "node-" + std::to_string(next)}, &n).ok()) {
      state.SkipWithError("get failed");
      return;
    }
    n.meta.labels["touched"] = std::to_string(++writes);  // a real change: an event
    if (!server.Store<Node>().Patch(&n).ok()) state.SkipWithError("patch failed");
    horizon += kSecond;
    loop.Run(horizon, 100'000'000);  // delivers the event to every informer
    next = (next + 1) % nodes;
  }
  state.counters["deliveries/s"] =
      benchmark::Counter(static_cast<double>(delivered), benchmark::Counter::kIsRate);
  state.counters["per_write"] =
      static_cast<double>(delivered) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_WatchFanOut)->ArgsProduct({{1, 4, 16}, {1000, 100000}});

}  // namespace
}  // namespace mpsim
