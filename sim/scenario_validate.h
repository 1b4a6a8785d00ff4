// Semantic checks of a converted Scenario: the ranges, cross references and
// rules that the types of the schema cannot express.
#pragma once

#include <string>
#include <vector>

#include "sim/proto/scenario.pb.h"
#include "sim/scenario_schema.h"

namespace mpsim::scenario {

// Limits a scenario must stay within; docs/scenarios.md lists them.
inline constexpr int kMaxReplicas = 100'000;  // the largest pool the performance budget covers
inline constexpr int kMaxPools = 1'000;
inline constexpr int kMaxEvents = 100'000;
inline constexpr int kMaxExpectations = 10'000;
inline constexpr int kMaxConcurrentReconciles = 1'000;
inline constexpr int kMaxZoneCapacity = 1'000'000;
inline constexpr int kMaxSamples = 100'000;

// Appends one issue per broken rule. REQUIRES: `sc` converted without issues
// and its defaults filled.
void ValidateScenario(const proto::Scenario& sc, std::vector<Issue>* issues);

// Appends one issue per broken rule of spec.events (names, times, deleted pools).
void ValidateEvents(const proto::ScenarioSpec& spec, std::vector<Issue>* issues);

// Appends one issue per broken rule of spec.expect.
void ValidateExpectations(const proto::ScenarioSpec& spec, std::vector<Issue>* issues);

// Appends one issue per broken rule of the distribution at `path`.
void ValidateDistribution(const proto::Distribution& d, const std::string& path,
                          std::vector<Issue>* issues);

// Appends one issue per broken rule of an `asg` block's lifecycle hooks, API
// throttling buckets and spot interruption rate.
void ValidateAsgHooksAndLimits(const proto::AsgProvider& a, const std::string& path,
                               std::vector<Issue>* issues);

// Appends one issue per broken rule of a `vmss` block's deleteSelection,
// resourceGroup, nodeResourceGroupCase, orchestrationMode and
// terminateNotificationTimeout.
void ValidateVmssVersionsAndIds(const proto::VmssProvider& v, const std::string& path,
                                std::vector<Issue>* issues);

// Appends one issue per broken rule of a `mig` block's GKE node-pool keys
// (gkeAutoscaling, imageType).
void ValidateGkeKeys(const proto::MigProvider& m, const std::string& path,
                     std::vector<Issue>* issues);

// Appends one issue per broken rule of a `mig` block's update-policy keys
// (updateMaxSurge, updateMaxUnavailable, updateMinimalAction,
// updateReplacementMethod) for a pool of `replicas`.
void ValidateMigUpdatePolicy(const proto::MigProvider& m, int32_t replicas, const std::string& path,
                             std::vector<Issue>* issues);
// Appends one issue per broken rule of a `setInfraPoolSpec` event on `pool`
// (nullptr: an unknown pool): only GKE pools take fields, each one of their
// editable keys with a value its block key would take.
void ValidateInfraPoolSpecEdit(const proto::MachinePoolSpec* pool,
                               const proto::Event::SetInfraPoolSpec& edit, const std::string& path,
                               std::vector<Issue>* issues);

// "a, b or c".
std::string OrList(const std::vector<std::string>& words);

// Appends an issue, with a suggestion, unless `value` is one of `allowed`.
void CheckOneOf(const std::string& value, const std::vector<std::string>& allowed,
                const std::string& path, const std::string& what, std::vector<Issue>* issues);

// Appends an issue unless `version` is a v-prefixed semantic version (v1.30.0).
void CheckVersion(const std::string& version, const std::string& path, std::vector<Issue>* issues);

// Appends the issue at `path` (no hint).
void AddIssue(std::vector<Issue>* issues, const std::string& path, std::string message);

}  // namespace mpsim::scenario
