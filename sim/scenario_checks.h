// The rules that every part of a scenario file shares: distributions, words
// from a fixed list, versions, probabilities, and the keys every provider
// block has (zones, capacity, launchDelay, deleteDelay). The whole file's
// rules are in scenario/validate.h; each provider's own in its folder.
#pragma once

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "sim/proto/distribution.pb.h"
#include "sim/scenario_schema.h"
#include "sim/yaml_to_proto.h"

namespace mpsim::scenario {

inline constexpr int kMaxZoneCapacity = 1'000'000;
inline constexpr int kMaxSamples = 100'000;

// A distribution kind (`dist`) and the parameters it takes, by YAML name.
struct DistributionKind {
  std::string name;
  std::vector<std::string> params;
};

// Every kind, in the order docs/scenarios.md lists them.
const std::vector<DistributionKind>& DistributionKinds();

// Appends one issue per broken rule of the distribution at `path`.
void ValidateDistribution(const proto::Distribution& d, const std::string& path,
                          std::vector<Issue>* issues);

// "a, b or c".
std::string OrList(const std::vector<std::string>& words);

// Appends an issue, with a suggestion, unless `value` is one of `allowed`.
void CheckOneOf(const std::string& value, const std::vector<std::string>& allowed,
                const std::string& path, const std::string& what, std::vector<Issue>* issues);

// Appends an issue unless `version` is a v-prefixed semantic version (v1.30.0).
void CheckVersion(const std::string& version, const std::string& path, std::vector<Issue>* issues);

// Appends an issue unless 0 <= p <= 1.
void CheckProbability(double p, const std::string& path, std::vector<Issue>* issues);

// Appends the issue at `path` (no hint).
void AddIssue(std::vector<Issue>* issues, const std::string& path, std::string message);

// "%g" of `v`.
std::string FormatNumber(double v);

// The keys every provider block shares, with the same rules on every cloud
// (DESIGN.md "Scenario files"): at least one zone, each named once, capacity
// only for listed zones, and the two delays.
template <class Block>
void ValidateSharedKeys(const Block& c, const std::string& path, std::vector<Issue>* issues) {
  const std::string zones_path = JoinKey(path, "zones");
  if (c.zones_size() == 0) AddIssue(issues, zones_path, "list at least one zone");
  std::vector<std::string> zones;
  for (int i = 0; i < c.zones_size(); ++i) {
    const std::string& z = c.zones(i);
    if (z.empty()) AddIssue(issues, JoinIndex(zones_path, i), "a zone name cannot be empty");
    if (std::find(zones.begin(), zones.end(), z) != zones.end()) {
      AddIssue(issues, JoinIndex(zones_path, i), "zone " + Quote(z) + " listed twice");
    }
    zones.push_back(z);
  }
  // Sorted, so that errors come out in the same order on every run.
  const std::map<std::string, int32_t> capacity(c.capacity().begin(), c.capacity().end());
  for (const auto& [zone, n] : capacity) {
    const std::string item = JoinKey(JoinKey(path, "capacity"), zone);
    if (std::find(zones.begin(), zones.end(), zone) == zones.end()) {
      AddIssue(issues, item,
               "capacity names zone " + Quote(zone) + ", which is not in zones" +
                   DidYouMean(zone, zones));
    }
    if (n > kMaxZoneCapacity) {
      AddIssue(issues, item, "expected at most " + std::to_string(kMaxZoneCapacity) + " instances");
    }
  }
  ValidateDistribution(c.launch_delay(), JoinKey(path, "launchDelay"), issues);
  ValidateDistribution(c.delete_delay(), JoinKey(path, "deleteDelay"), issues);
}

}  // namespace mpsim::scenario
