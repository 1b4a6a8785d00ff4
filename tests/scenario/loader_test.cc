// Loading scenarios: the shipped examples, defaults, --set overrides, and one
// broken file per error class under tests/data/bad.
#include "scenario/loader.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "api/time.h"
#include "scenario/defaults.h"
#include "sim/distribution_proto.h"
#include "sim/scenario_schema.h"

namespace mpsim {
namespace {

const std::string kSource = MPSIM_SOURCE_DIR;

// A complete scenario that names only what a test needs.
const char* kMinimal = R"(apiVersion: mpsim/v1
kind: Scenario
metadata: {name: minimal}
spec:
  machinePools:
    - name: mp-0
      provider: {test: {}}
)";

std::string JoinErrors(const std::vector<ScenarioError>& errors) {
  std::string all;
  for (const ScenarioError& e : errors) all += e.String() + "\n";
  return all;
}

proto::Scenario MustLoad(const std::string& text, const std::vector<std::string>& sets = {}) {
  proto::Scenario sc;
  std::vector<ScenarioError> errors;
  EXPECT_TRUE(LoadScenarioFromString(text, "test.yaml", {sets}, &sc, &errors))
      << JoinErrors(errors);
  return sc;
}

std::vector<ScenarioError> MustFail(const std::string& text, const std::vector<std::string>& sets) {
  proto::Scenario sc;
  std::vector<ScenarioError> errors;
  EXPECT_FALSE(LoadScenarioFromString(text, "test.yaml", {sets}, &sc, &errors));
  EXPECT_FALSE(errors.empty());
  return errors;
}

void ExpectLognormal(const proto::Distribution& d, Duration median, Duration p99) {
  EXPECT_EQ(d.dist(), "lognormal");
  EXPECT_EQ(d.median(), median);
  EXPECT_EQ(d.p99(), p99);
}

void ExpectConstant(const proto::Distribution& d, Duration value) {
  EXPECT_EQ(d.dist(), "constant");
  EXPECT_EQ(d.value(), value);
}

TEST(ScenarioLoader, DesignExampleLoads) {
  proto::Scenario sc;
  std::vector<ScenarioError> errors;
  ASSERT_TRUE(LoadScenario(kSource + "/scenarios/examples/design-example.yaml", {}, &sc, &errors))
      << JoinErrors(errors);
  EXPECT_EQ(sc.metadata().name(), "asg-scale-up-1000");
  EXPECT_EQ(sc.spec().horizon(), 2 * kHour);
  EXPECT_EQ(sc.spec().controller().max_concurrent_reconciles(), 10);
  EXPECT_EQ(sc.spec().workload_cluster().provider_id().set_by(), "kubelet");
  ExpectConstant(sc.spec().workload_cluster().node_ready(), 5 * kSecond);
  ASSERT_EQ(sc.spec().machine_pools_size(), 1);
  const proto::MachinePoolSpec& pool = sc.spec().machine_pools(0);
  ASSERT_EQ(pool.provider_case(), proto::MachinePoolSpec::kAsg);
  EXPECT_EQ(pool.asg().zones_size(), 3);
  EXPECT_EQ(pool.asg().capacity().at("us-east-1a"), 300);
  ExpectLognormal(pool.asg().launch_delay(), 35 * kSecond, 90 * kSecond);
  ASSERT_EQ(sc.spec().events_size(), 3);
  EXPECT_EQ(sc.spec().events(1).at(), 40 * kMinute);
  EXPECT_EQ(sc.spec().events(1).upgrade().version(), "v1.31.0");
  EXPECT_EQ(sc.spec().events(2).delete_pool().pool(), "mp-0");
  ASSERT_EQ(sc.spec().expect_size(), 1);
  EXPECT_EQ(sc.spec().expect(0).within(), 20 * kMinute);
}

TEST(ScenarioLoader, DemoLoads) {
  proto::Scenario sc;
  std::vector<ScenarioError> errors;
  ASSERT_TRUE(LoadScenario(kSource + "/scenarios/demo.yaml", {}, &sc, &errors))
      << JoinErrors(errors);
  EXPECT_EQ(sc.metadata().name(), "demo");
  EXPECT_EQ(sc.spec().horizon(), 30 * kMinute);
  ASSERT_EQ(sc.spec().machine_pools_size(), 1);
  EXPECT_EQ(sc.spec().machine_pools(0).name(), "mp-0");
  EXPECT_EQ(sc.spec().machine_pools(0).replicas(), 0);
  EXPECT_TRUE(sc.spec().machine_pools(0).has_test());
  ASSERT_EQ(sc.spec().events_size(), 1);
  EXPECT_EQ(sc.spec().events(0).at(), 0);
  EXPECT_EQ(sc.spec().events(0).scale().replicas(), 3);
  EXPECT_EQ(sc.spec().expect(0).phase(), "Running");
  EXPECT_EQ(sc.spec().expect(0).within(), 10 * kMinute);
}

TEST(ScenarioLoader, EveryExampleScenarioLoads) {
  for (const auto& entry : std::filesystem::recursive_directory_iterator(kSource + "/scenarios")) {
    if (entry.path().extension() != ".yaml") continue;
    proto::Scenario sc;
    std::vector<ScenarioError> errors;
    EXPECT_TRUE(LoadScenario(entry.path().string(), {}, &sc, &errors)) << JoinErrors(errors);
  }
}

TEST(ScenarioDefaults, TopLevelAndControllerDefaults) {
  const proto::Scenario sc = MustLoad(kMinimal);
  EXPECT_EQ(sc.spec().seed(), 1u);
  EXPECT_EQ(sc.spec().horizon(), kHour);
  const proto::ControllerSpec& c = sc.spec().controller();
  EXPECT_EQ(c.max_concurrent_reconciles(), 50);
  EXPECT_EQ(c.informer_lag().dist(), "exponential");
  EXPECT_EQ(c.informer_lag().mean(), 50 * kMillisecond);
  EXPECT_EQ(c.sync_period(), 10 * kMinute);
  ExpectConstant(c.reconcile_duration(), 20 * kMillisecond);
  EXPECT_EQ(c.provider_id_match(), "exact");
  EXPECT_EQ(c.fixes_size(), 0);
  // etcd's --max-request-bytes default, 1.5 MiB (docs/reference/capi-core.md §1.15).
  EXPECT_EQ(sc.spec().api_server().max_object_bytes(), 1572864u);
}

TEST(ScenarioDefaults, WorkloadClusterDefaults) {
  const proto::WorkloadClusterSpec w = MustLoad(kMinimal).spec().workload_cluster();
  ExpectLognormal(w.node_registration(), 25 * kSecond, 57 * kSecond);
  ExpectLognormal(w.node_ready(), 15 * kSecond, 40 * kSecond);
  EXPECT_EQ(w.provider_id().set_by(), "cloud-controller-manager");
  ExpectLognormal(w.provider_id().ccm_delay(), 2 * kSecond, 19 * kSecond);
  EXPECT_TRUE(w.provider_id().faults().has_case_mismatch());
  EXPECT_EQ(w.provider_id().faults().case_mismatch(), 0.0);
  EXPECT_EQ(w.provider_id().faults().missing(), 0.0);
  EXPECT_EQ(w.provider_id().faults().wrong_format(), 0.0);
  EXPECT_EQ(w.provider_id().faults().late().probability(), 0.0);
  ExpectConstant(w.provider_id().faults().late().delay(), 60 * kSecond);
  EXPECT_TRUE(w.has_control_plane_ready_at());
  EXPECT_EQ(w.control_plane_ready_at(), 0);
  ExpectConstant(w.bootstrap_delay(), 2 * kSecond);
  EXPECT_EQ(w.node_monitor_grace_period(), 40 * kSecond);
}

TEST(ScenarioDefaults, PoolAndTestProviderDefaults) {
  const proto::MachinePoolSpec p = MustLoad(kMinimal).spec().machine_pools(0);
  EXPECT_EQ(p.replicas(), 1);
  EXPECT_EQ(p.version(), "v1.30.0");
  EXPECT_EQ(p.min_ready_seconds(), 0);
  EXPECT_EQ(p.node_deletion_timeout(), 10 * kSecond);
  EXPECT_TRUE(p.annotations().empty());
  ExpectLognormal(p.test().launch_delay(), 30 * kSecond, 90 * kSecond);
  ExpectConstant(p.test().delete_delay(), 30 * kSecond);
  EXPECT_EQ(p.test().provider_id_prefix(), "test://");
}

TEST(ScenarioDefaults, CloudProviderDefaults) {
  std::string text = kMinimal;
  text.replace(text.find("{test: {}}"), 10, "{asg: {}}");
  text +=
      "    - {name: mp-1, provider: {vmss: }}\n    - {name: mp-2, "
      "provider: {mig: {}}}\n";
  const proto::Scenario sc = MustLoad(text);
  const proto::AsgProvider& asg = sc.spec().machine_pools(0).asg();
  EXPECT_EQ(asg.zones(0), "us-east-1a");
  EXPECT_TRUE(asg.capacity().empty());
  ExpectLognormal(asg.launch_delay(), 10 * kSecond, 21 * kSecond);
  ExpectLognormal(asg.delete_delay(), 30 * kSecond, 142 * kSecond);
  ExpectLognormal(asg.reaction_delay(), 4 * kSecond, 11 * kSecond);
  const proto::VmssProvider& vmss = sc.spec().machine_pools(1).vmss();
  EXPECT_EQ(vmss.zones(0), "1");
  ExpectLognormal(vmss.launch_delay(), 60 * kSecond, 284 * kSecond);
  ExpectLognormal(vmss.delete_delay(), 60 * kSecond, 284 * kSecond);
  const proto::MigProvider& mig = sc.spec().machine_pools(2).mig();
  EXPECT_EQ(mig.zones(0), "us-central1-a");
  ExpectLognormal(mig.launch_delay(), 12 * kSecond, 25 * kSecond);
  ExpectLognormal(mig.delete_delay(), 40 * kSecond, 189 * kSecond);
}

TEST(ScenarioDefaults, WrittenValuesWin) {
  std::string text = kMinimal;
  text +=
      "  horizon: 2h\n  controller: {maxConcurrentReconciles: 3, "
      "syncPeriod: 1m}\n";
  const proto::Scenario sc = MustLoad(text);
  EXPECT_EQ(sc.spec().horizon(), 2 * kHour);
  EXPECT_EQ(sc.spec().controller().max_concurrent_reconciles(), 3);
  EXPECT_EQ(sc.spec().controller().sync_period(), kMinute);
  EXPECT_EQ(sc.spec().controller().informer_lag().mean(), 50 * kMillisecond);
}

TEST(ScenarioDefaults, DistributionWithoutDistKeepsDefaultKind) {
  std::string text = kMinimal;
  text += "  controller: {informerLag: {mean: 200ms}}\n";
  text += "  workloadCluster: {nodeReady: {dist: constant, value: 5s}}\n";
  const proto::Scenario sc = MustLoad(text);
  EXPECT_EQ(sc.spec().controller().informer_lag().dist(), "exponential");
  EXPECT_EQ(sc.spec().controller().informer_lag().mean(), 200 * kMillisecond);
  const proto::Distribution& ready = sc.spec().workload_cluster().node_ready();
  ExpectConstant(ready, 5 * kSecond);
  EXPECT_FALSE(ready.has_median());
}

TEST(ScenarioDefaults, EveryTableEntryResolvesAndParses) {
  for (const scenario::DefaultEntry& d : scenario::DefaultTable()) {
    std::vector<scenario::PathStep> steps;
    std::string error;
    EXPECT_TRUE(scenario::ResolvePath(proto::Scenario::descriptor(), d.key, &steps, &error))
        << d.key << ": " << error;
    EXPECT_NO_THROW(YAML::Load(d.value)) << d.key;
    EXPECT_NE(std::string(d.source), "") << d.key;
  }
}

TEST(ScenarioOverrides, SetReplacesValues) {
  std::string text = kMinimal;
  text += "    - {name: mp-1, provider: {asg: {}}}\n";
  const proto::Scenario sc =
      MustLoad(text, {"spec.machinePools[0].replicas=7", "spec.horizon=3h",
                      "spec.controller.informerLag.mean=100ms",
                      "spec.machinePools[1].provider.asg.zones=[a, b]",
                      "spec.workloadCluster.nodeReady={dist: constant, value: 1s}"});
  EXPECT_EQ(sc.spec().machine_pools(0).replicas(), 7);
  EXPECT_EQ(sc.spec().horizon(), 3 * kHour);
  EXPECT_EQ(sc.spec().controller().informer_lag().dist(), "exponential");
  EXPECT_EQ(sc.spec().controller().informer_lag().mean(), 100 * kMillisecond);
  ASSERT_EQ(sc.spec().machine_pools(1).asg().zones_size(), 2);
  EXPECT_EQ(sc.spec().machine_pools(1).asg().zones(1), "b");
  ExpectConstant(sc.spec().workload_cluster().node_ready(), kSecond);
}

TEST(ScenarioOverrides, ReplacedProviderGetsItsDefaults) {
  const proto::Scenario sc = MustLoad(kMinimal, {"spec.machinePools[0].provider={vmss: {}}"});
  ASSERT_TRUE(sc.spec().machine_pools(0).has_vmss());
  ExpectLognormal(sc.spec().machine_pools(0).vmss().launch_delay(), 60 * kSecond, 284 * kSecond);
}

TEST(ScenarioOverrides, LaterOverrideWins) {
  const proto::Scenario sc = MustLoad(kMinimal, {"spec.seed=5", "spec.seed=9"});
  EXPECT_EQ(sc.spec().seed(), 9u);
}

TEST(ScenarioOverrides, UnknownPathSuggestsAKey) {
  const auto errors = MustFail(kMinimal, {"spec.machinePools[0].replicsa=4"});
  EXPECT_EQ(errors[0].file, "--set spec.machinePools[0].replicsa=4");
  EXPECT_NE(errors[0].message.find("did you mean \"replicas\"?"), std::string::npos)
      << errors[0].String();
}

TEST(ScenarioOverrides, BadValueIsCheckedLikeFileContent) {
  const auto errors = MustFail(kMinimal, {"spec.horizon=5x"});
  EXPECT_EQ(errors[0].file, "--set spec.horizon=5x");
  EXPECT_EQ(errors[0].key, "spec.horizon");
  EXPECT_NE(errors[0].message.find("expected a duration such as 45s"), std::string::npos);
}

TEST(ScenarioOverrides, SemanticErrorsNameTheOverride) {
  const auto errors = MustFail(kMinimal, {"spec.machinePools[0].replicas=200000"});
  EXPECT_EQ(errors[0].file, "--set spec.machinePools[0].replicas=200000");
  EXPECT_NE(errors[0].message.find("at most 100000"), std::string::npos);
}

TEST(ScenarioOverrides, MalformedOverridesFail) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"spec.horizon", "expected PATH=VALUE"},
      {"spec.machinePools[3].replicas=1", "index 3 is out of range"},
      {"spec.machinePools[].replicas=1", "name one list element"},
      {"spec.machinePools.replicas=1", "is a list"},
      {"spec.horizon.x=1", "holds a single value"},
      {"spec.horizon=[1h", "cannot read the value"},
      {"spec..horizon=1h", "empty key"},
  };
  for (const auto& [arg, want] : cases) {
    const auto errors = MustFail(kMinimal, {arg});
    ASSERT_FALSE(errors.empty()) << arg;
    EXPECT_EQ(errors[0].file, "--set " + arg);
    EXPECT_NE(errors[0].message.find(want), std::string::npos) << errors[0].String();
  }
}

TEST(ScenarioErrors, StringHasEveryPart) {
  ScenarioError e{"a.yaml", 3, 7, "spec.horizon", "expected a duration"};
  EXPECT_EQ(e.String(), "a.yaml:3:7: spec.horizon: expected a duration");
  e.line = 0;
  e.key = "";
  EXPECT_EQ(e.String(), "a.yaml: expected a duration");
}

TEST(ScenarioErrors, EveryProblemIsReportedInFileOrder) {
  std::string text = kMinimal;
  text += "  controller: {maxConcurrentReconcile: 2}\n  horizon: soon\n";
  const auto errors = MustFail(text, {});
  ASSERT_EQ(errors.size(), 2u) << JoinErrors(errors);
  EXPECT_EQ(errors[0].line, 8);
  EXPECT_EQ(errors[1].line, 9);
}

// A setting upstream accepts but that can never converge: a warning with
// the key's position; the scenario still loads.
const char* kTwoZoneMig = R"(apiVersion: mpsim/v1
kind: Scenario
metadata: {name: two-zones}
spec:
  machinePools:
    - name: mp-0
      provider:
        mig:
          zones: [us-central1-a, us-central1-b]
)";

TEST(ScenarioWarnings, ComeWithTheKeysPositionAndTheLoadSucceeds) {
  proto::Scenario sc;
  std::vector<ScenarioError> errors;
  std::vector<ScenarioError> warnings;
  EXPECT_TRUE(LoadScenarioFromString(kTwoZoneMig, "w.yaml", {}, &sc, &errors, &warnings));
  EXPECT_TRUE(errors.empty()) << JoinErrors(errors);
  ASSERT_EQ(warnings.size(), 1u) << JoinErrors(warnings);
  EXPECT_EQ(warnings[0].file, "w.yaml");
  EXPECT_EQ(warnings[0].line, 9);
  EXPECT_EQ(warnings[0].column, 11);
  EXPECT_EQ(warnings[0].key, "spec.machinePools[0].provider.mig.zones");
  // Without a place to put them, the same load is as before.
  errors.clear();
  EXPECT_TRUE(LoadScenarioFromString(kTwoZoneMig, "w.yaml", {}, &sc, &errors));
}

TEST(ScenarioWarnings, NoneForAScenarioWithErrors) {
  std::string text = kTwoZoneMig;
  text += "  horizon: soon\n";
  proto::Scenario sc;
  std::vector<ScenarioError> errors;
  std::vector<ScenarioError> warnings;
  EXPECT_FALSE(LoadScenarioFromString(text, "w.yaml", {}, &sc, &errors, &warnings));
  EXPECT_TRUE(warnings.empty()) << JoinErrors(warnings);
}

TEST(ScenarioErrors, FilesThatCannotBeRead) {
  proto::Scenario sc;
  std::vector<ScenarioError> errors;
  EXPECT_FALSE(LoadScenario(kSource + "/scenarios", {}, &sc, &errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].message.find("is a directory"), std::string::npos);
  errors.clear();
  EXPECT_FALSE(LoadScenario(kSource + "/no/such/file.yaml", {}, &sc, &errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].message.find("cannot open"), std::string::npos);
}

TEST(ScenarioErrors, UnreadableFile) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / "mpsim_unreadable_scenario.yaml";
  std::ofstream(path) << kMinimal;
  std::filesystem::permissions(path, std::filesystem::perms::none);
  if (std::ifstream(path).good()) {
    std::filesystem::remove(path);
    GTEST_SKIP() << "running with permission to read anything (root)";
  }
  proto::Scenario sc;
  std::vector<ScenarioError> errors;
  EXPECT_FALSE(LoadScenario(path.string(), {}, &sc, &errors));
  std::filesystem::remove(path);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].message.find("cannot read"), std::string::npos) << errors[0].String();
}

TEST(ScenarioErrors, GarbageNeverThrows) {
  const std::vector<std::string> inputs = {"{",
                                           "[",
                                           "*x",
                                           "a: &x [*x]",
                                           "? [a]: 1",
                                           std::string(3, '\0'),
                                           "\xff\xfe",
                                           "apiVersion: mpsim/v1\nspec: {machinePools: [[1]]}",
                                           std::string(5000, '[')};
  for (const std::string& text : inputs) {
    proto::Scenario sc;
    std::vector<ScenarioError> errors;
    EXPECT_NO_THROW(LoadScenarioFromString(text, "g.yaml", {}, &sc, &errors));
    EXPECT_FALSE(errors.empty()) << text;
  }
}

// Each file under tests/data/bad starts with "# expect: <part of the message>"
// and "# at: LINE:COL", the position the error must name.
TEST(ScenarioErrors, BadScenarioFiles) {
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kSource + "/tests/data/bad")) {
    if (entry.path().extension() != ".yaml") continue;
    ++files;
    const std::string path = entry.path().string();
    std::ifstream in(path, std::ios::binary);
    std::string expect_line, at_line;
    std::getline(in, expect_line);
    std::getline(in, at_line);
    ASSERT_EQ(expect_line.rfind("# expect: ", 0), 0u) << path;
    ASSERT_EQ(at_line.rfind("# at: ", 0), 0u) << path;
    const std::string want = expect_line.substr(10);
    const std::string at = at_line.substr(6);
    proto::Scenario sc;
    std::vector<ScenarioError> errors;
    ASSERT_FALSE(LoadScenario(path, {}, &sc, &errors)) << path;
    ASSERT_FALSE(errors.empty()) << path;
    const std::string first = errors[0].String();
    EXPECT_GT(errors[0].line, 0) << first;
    EXPECT_EQ(first.rfind(path + ":" + at + ": ", 0), 0u) << first;
    EXPECT_NE(first.find(want), std::string::npos) << first << "\nwanted: " << want;
  }
  EXPECT_GE(files, 70);
}

TEST(ToDistSpec, EveryKind) {
  proto::Distribution d;
  d.set_dist("constant");
  d.set_value(5 * kSecond);
  EXPECT_EQ(ToDistSpec(d).kind, DistSpec::Kind::kConstant);
  EXPECT_EQ(ToDistSpec(d).value, 5.0 * kSecond);
  d.Clear();
  d.set_dist("uniform");
  d.set_min(kSecond);
  d.set_max(2 * kSecond);
  EXPECT_EQ(ToDistSpec(d).kind, DistSpec::Kind::kUniform);
  d.set_dist("exponential");
  d.set_mean(kSecond);
  EXPECT_EQ(ToDistSpec(d).kind, DistSpec::Kind::kExponential);
  d.Clear();
  d.set_dist("lognormal");
  d.set_mu(std::log(2.0));
  d.set_sigma(0.5);
  EXPECT_EQ(ToDistSpec(d).kind, DistSpec::Kind::kLognormal);
  EXPECT_NEAR(ToDistSpec(d).mu, std::log(2.0) + std::log(1e6), 1e-9);
  d.Clear();
  d.set_dist("empirical");
  d.add_samples(kSecond);
  EXPECT_EQ(ToDistSpec(d).kind, DistSpec::Kind::kEmpirical);
}

}  // namespace
}  // namespace mpsim
