// The `test` block: defaults and rules of a cloud with no semantics of its own.
#include "models/test/test_schema.h"

#include "sim/scenario_checks.h"

namespace mpsim::test {

std::vector<scenario::DefaultEntry> Defaults() {
  return {
      {"spec.machinePools[].provider.test.launchDelay", "{dist: lognormal, median: 30s, p99: 90s}",
       "", "assumption", "L"},
      {"spec.machinePools[].provider.test.deleteDelay", "{dist: constant, value: 30s}", "",
       "assumption", "L"},
      {"spec.machinePools[].provider.test.providerIDPrefix", "test://", "", "mpsim choice", "-"},
      {"spec.machinePools[].provider.test.readyWhen", "created", "", "mpsim choice", "-"},
      {"spec.machinePools[].provider.test.failureReason", "\"\"", "", "no failure unless asked",
       "-"},
      {"spec.machinePools[].provider.test.reportsReplicas", "true", "",
       "the InfraMachinePool contract (status.replicas)", "-"},
      {"spec.machinePools[].provider.test.machinePoolMachines", "false", "",
       "mpsim choice: like CAPA and CAPG, no InfraMachines unless asked", "-"},
  };
}

void ValidateBlock(const proto::MachinePoolSpec& pool, const std::string& path,
                   std::vector<scenario::Issue>* issues) {
  using scenario::JoinKey;
  const proto::TestProvider& t = pool.test();
  scenario::ValidateDistribution(t.launch_delay(), JoinKey(path, "launchDelay"), issues);
  scenario::ValidateDistribution(t.delete_delay(), JoinKey(path, "deleteDelay"), issues);
  if (t.provider_id_prefix().empty()) {
    scenario::AddIssue(issues, JoinKey(path, "providerIDPrefix"),
                       "the providerID prefix cannot be empty");
  }
  static const std::vector<std::string> kReadyWhen = {"created", "allRunning"};
  scenario::CheckOneOf(t.ready_when(), kReadyWhen, JoinKey(path, "readyWhen"), "readyWhen", issues);
}

}  // namespace mpsim::test
