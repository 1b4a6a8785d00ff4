// The plan of a parameter sweep: the `--set PATH=V1,V2,...` lists (with linear
// and log ranges), their cartesian product, the seeds of every run and shards.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mpsim {

// Upper bounds, so that a typo cannot ask for a sweep that never ends.
inline constexpr size_t kMaxSweepValues = 10'000;   // values of one --set list
inline constexpr size_t kMaxSweepPoints = 100'000;  // points of the product
inline constexpr uint64_t kMaxSweepSeeds = 1'000'000;

// One swept key and the values it takes, as text the scenario loader reads.
struct SweepParam {
  std::string path;                 // e.g. "spec.machinePools[0].replicas"
  std::vector<std::string> values;  // in the order given, ranges expanded
  // The values as numbers (durations in seconds), when every one is numeric;
  // what the scaling-law fits use as x.
  std::optional<std::vector<double>> numeric;
};

// A param with its numeric view filled in (for plans read back from sweep.json).
SweepParam MakeSweepParam(std::string path, std::vector<std::string> values);

// Parses "PATH=ITEM,ITEM,..." where an ITEM is a YAML scalar or list/map
// ([a, b] keeps its commas), "A..B:STEP" (A, A+STEP, ... up to B) or
// "A..B:xF" (A, A*F, A*F^2, ... up to B; rounded when A and B are integers).
// False with *error set (naming the argument) on bad input.
bool ParseSweepParam(const std::string& arg, SweepParam* out, std::string* error);

// Parses "I/N" (0 <= I < N <= 10000). False with *error set otherwise.
bool ParseShard(const std::string& text, size_t* index, size_t* count, std::string* error);

// The cartesian product of the params, N seeds at each point. Runs are
// numbered point * seeds + seed_index; the first param varies slowest.
class SweepPlan {
 public:
  SweepPlan(std::vector<SweepParam> params, uint64_t seeds, uint64_t root_seed);
  SweepPlan() : SweepPlan({}, 1, 0) {}  // one point, one seed

  // REQUIRES: every param has at least one value. False with *error set when
  // the product has more than kMaxSweepPoints points.
  static bool Check(const std::vector<SweepParam>& params, std::string* error);

  const std::vector<SweepParam>& params() const { return params_; }
  uint64_t seeds() const { return seeds_; }
  uint64_t root_seed() const { return root_seed_; }
  size_t points() const { return points_; }
  size_t runs() const { return points_ * seeds_; }

  // Index of each param's value at `point`.
  std::vector<size_t> Coordinates(size_t point) const;
  // The "PATH=VALUE" overrides that make `point`.
  std::vector<std::string> Overrides(size_t point) const;
  // The root seed of run `seed_index` at `point`: depends only on the root
  // seed, the point's values and the index, so adding a value to a list does
  // not change the seeds of the other points.
  uint64_t Seed(size_t point, uint64_t seed_index) const;
  // The runs of shard `index` of `count`: every count-th run, so that each
  // shard gets its share of every point (large points cost more).
  std::vector<size_t> ShardRuns(size_t index, size_t count) const;

 private:
  std::vector<SweepParam> params_;
  uint64_t seeds_;
  uint64_t root_seed_;
  size_t points_;
};

}  // namespace mpsim
