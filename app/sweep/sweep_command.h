// `mpsim sweep` and `mpsim merge` (docs/sweeps.md): a scenario over the
// product of --set lists and N seeds each, and the merge of its shards.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mpsim {

struct SweepArgs {
  std::string scenario;
  uint64_t seeds = 1;
  std::vector<std::string> sets;  // "PATH=V1,V2,..." each
  std::string overlay;            // --overlay FILE, merged into every point; empty: none
  size_t jobs = 0;                // 0: one per core
  std::string shard;              // "I/N"; empty: the whole sweep
  std::string out_dir;            // empty: results/<scenario-name>/sweep
};
// 0 when every run of the sweep (or shard) is written, 2 on bad input or a
// run that failed, kExitInterrupted when a signal stopped it (resumable).
int SweepCommand(const SweepArgs& args);

struct MergeArgs {
  std::vector<std::string> dirs;  // shard output directories
  std::string out_dir;            // empty: results/<scenario-name>/sweep
};
// 0 when the shards made one whole sweep, written as one machine would have;
// 2 for shards of different sweeps, missing or repeated shards.
int MergeCommand(const MergeArgs& args);

}  // namespace mpsim
