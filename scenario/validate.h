// Semantic checks of a converted Scenario: the ranges, cross references and
// rules that the types of the schema cannot express.
#pragma once

#include <string>
#include <vector>

#include "scenario/scenario.pb.h"
#include "sim/scenario_checks.h"

namespace mpsim::scenario {

// Limits a scenario must stay within; docs/scenarios.md lists them.
inline constexpr int kMaxReplicas = 100'000;  // the largest pool the performance budget covers
inline constexpr int kMaxPools = 1'000;
inline constexpr int kMaxEvents = 100'000;
inline constexpr int kMaxExpectations = 10'000;
inline constexpr int kMaxConcurrentReconciles = 1'000;

// Appends one issue per broken rule. REQUIRES: `sc` converted without issues
// and its defaults filled.
void ValidateScenario(const proto::Scenario& sc, std::vector<Issue>* issues);

// Appends one warning per setting that upstream accepts but with which a pool
// can never converge; each provider names its own (ProviderRegistration::warn).
// REQUIRES: `sc` valid (ValidateScenario found nothing).
void WarnScenario(const proto::Scenario& sc, std::vector<Issue>* warnings);

// Appends one issue per broken rule of spec.events (names, times, deleted pools).
void ValidateEvents(const proto::ScenarioSpec& spec, std::vector<Issue>* issues);

// Appends one issue per broken rule of the autoscaler's keys: the
// `autoscaler:` block and each pool's `autoscaling:` and `nodeResources:`.
void ValidateAutoscaling(const proto::ScenarioSpec& spec, std::vector<Issue>* issues);

// The rules of the pod events, for the event at `path`.
void ValidatePodsEvent(const proto::Event::Pods& e, const std::string& path,
                       std::vector<Issue>* issues);
void ValidateDeletePodsEvent(const proto::Event::DeletePods& e, const std::string& path,
                             std::vector<Issue>* issues);

// Appends one issue per broken rule of spec.expect.
void ValidateExpectations(const proto::ScenarioSpec& spec, std::vector<Issue>* issues);

}  // namespace mpsim::scenario
