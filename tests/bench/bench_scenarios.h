// The one-pool scenarios the whole-run benchmarks time (run_bench.cc) and
// take their outputs from (run_outputs_bench.cc).
#pragma once

#include <string>

namespace mpsim {

// One pool, mp-0, from 0 replicas on `provider` with `options` (its block's
// keys, "" for the defaults); `events` are the scenario's event lines.
// Without etcd's request limit, which would stop a pool near 6,000 (vmss) to
// 13,000 (test) replicas (docs/reference/capi-core.md §1.15): these time
// whole runs at every size.
inline std::string OnePoolScenario(const std::string& name, const std::string& horizon,
                                   const std::string& provider, const std::string& events,
                                   const std::string& options = "") {
  return "apiVersion: mpsim/v1\nkind: Scenario\nmetadata: {name: " + name +
         "}\nspec:\n  horizon: " + horizon + "\n  apiServer: {maxObjectBytes: 0}" +
         "\n  machinePools:\n  - name: mp-0\n    replicas: 0\n    version: v1.30.0\n"
         "    provider: {" +
         provider + ": {" + options + "}}\n  events:\n" + events;
}

// An event line that scales mp-0 to `replicas` at `at`.
inline std::string ScaleAt(const std::string& at, int replicas) {
  return "  - {at: " + at + ", scale: {pool: mp-0, replicas: " + std::to_string(replicas) + "}}\n";
}

inline std::string ScaleUpScenario(const std::string& provider, int replicas) {
  return OnePoolScenario("bench-scale-up", "1h", provider, ScaleAt("0s", replicas));
}

}  // namespace mpsim
