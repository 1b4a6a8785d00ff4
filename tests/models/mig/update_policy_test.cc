// The MIG's PROACTIVE update policy (docs/reference/providers.md §3.2): the budget of maxSurge
// and maxUnavailable for groups of 1, 3, 10 and 100, the rollouts it drives
// (SUBSTITUTE, RECREATE, REFRESH) with their invariants checked every second,
// and the scenario keys' validation.
#include "models/mig/update_policy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "models/mig/managed_instance_group.h"
#include "scenario/loader.h"
#include "sim/api_server.h"
#include "tests/models/mig/mig_test_options.h"

namespace mpsim::mig {
namespace {

UpdatePolicy Policy(const std::string& surge, const std::string& unavailable) {
  UpdatePolicy p;
  p.proactive = true;
  p.max_surge = surge;
  p.max_unavailable = unavailable;
  return p;
}

TEST(UpdateBudget, FixedCountsDoNotDependOnTheGroupSize) {
  for (int32_t size : {1, 3, 10, 100}) {
    const UpdateBudget b = BudgetFor(Policy("1", "1"), size);
    EXPECT_EQ(b.surge, 1) << size;
    EXPECT_EQ(b.unavailable, 1) << size;
    EXPECT_EQ(b.parallelism(), 2) << size;
    EXPECT_EQ(BudgetFor(Policy("3", "0"), size).parallelism(), 3) << size;
  }
}

TEST(UpdateBudget, PercentsAreRoundedUp) {
  const UpdatePolicy p = Policy("25%", "10%");
  EXPECT_EQ(BudgetFor(p, 1).surge, 1);  // 0.25 -> 1
  EXPECT_EQ(BudgetFor(p, 1).unavailable, 1);
  EXPECT_EQ(BudgetFor(p, 3).surge, 1);   // 0.75 -> 1
  EXPECT_EQ(BudgetFor(p, 10).surge, 3);  // 2.5 -> 3
  EXPECT_EQ(BudgetFor(p, 10).unavailable, 1);
  EXPECT_EQ(BudgetFor(p, 100).surge, 25);
  EXPECT_EQ(BudgetFor(p, 100).unavailable, 10);
  EXPECT_EQ(BudgetFor(p, 100).parallelism(), 35);
  EXPECT_EQ(FixedOrPercent("0%", 100), 0);
  EXPECT_EQ(FixedOrPercent("100%", 7), 7);
}

TEST(UpdateBudget, InPlaceUpdatesGetNoSurge) {
  UpdatePolicy p = Policy("25%", "2");
  p.replacement = ReplacementMethod::kRecreate;
  EXPECT_EQ(BudgetFor(p, 100).surge, 0);
  EXPECT_EQ(BudgetFor(p, 100).unavailable, 2);
  p = Policy("25%", "2");
  p.minimal_action = MinimalAction::kRefresh;
  EXPECT_TRUE(UpdatesInPlace(p));
  EXPECT_EQ(BudgetFor(p, 100).surge, 0);
  EXPECT_FALSE(UpdatesInPlace(Policy("1", "1")));
}

class UpdateRolloutTest : public ::testing::Test {
 protected:
  UpdateRolloutTest() : server_(&loop_), workload_(&loop_, &server_, &rec_, WorkloadOptions{}, 1) {}

  // Upgrades a group of `size` under `p` and checks §3.2's invariants every
  // second: instances not being deleted <= size + maxSurge, instances of the
  // target not RUNNING <= maxUnavailable. Returns the most VMs of the new
  // template being created at once.
  int RollOut(ManagedInstanceGroup* g, int32_t size, const UpdatePolicy& p) {
    g->Insert("z", size, "v1.30.0");
    loop_.Run(5 * kMinute, 10'000'000);
    before_ = Names(*g);
    // The loop's clock stops at its last event when it runs out of them.
    const Time start = loop_.Now();
    g->SetInstanceTemplate("v1.31.0");
    const UpdateBudget b = BudgetFor(p, size);
    int most_creating = 0;
    for (Time t = start; t < start + 5 * kHour; t += kSecond) {
      loop_.Run(t, 10'000'000);
      int active = 0, serving = 0, creating = 0;
      for (const ManagedInstance* m : g->ListManagedInstances()) {
        if (m->action == Action::kDeleting) continue;
        ++active;
        serving += m->action == Action::kNone && m->status == VmStatus::kRunning;
        creating += m->action == Action::kCreating;
      }
      EXPECT_LE(active, size + b.surge) << "at " << t;
      EXPECT_LE(size - serving, b.unavailable) << "at " << t;
      most_creating = std::max(most_creating, creating);
    }
    EXPECT_EQ(g->ListManagedInstances().size(), static_cast<size_t>(size));
    for (const ManagedInstance* m : g->ListManagedInstances()) {
      EXPECT_EQ(m->template_version, g->template_version()) << m->name;
      EXPECT_EQ(m->action, Action::kNone) << m->name;
    }
    return most_creating;
  }

  static std::set<std::string> Names(const ManagedInstanceGroup& g) {
    std::set<std::string> out;
    for (const ManagedInstance* m : g.ListManagedInstances()) out.insert(m->name);
    return out;
  }

  MigOptions Options(const UpdatePolicy& p) {
    MigOptions o = ConstantDelayMigOptions();
    o.update = p;
    return o;
  }

  EventLoop loop_;
  Recorder rec_;
  ApiServer server_;
  WorkloadCluster workload_;
  std::set<std::string> before_;
};

TEST_F(UpdateRolloutTest, DefaultPolicyReplacesTwoAtATime) {
  UpdatePolicy p;
  p.proactive = true;  // maxSurge 1, maxUnavailable 1, REPLACE, SUBSTITUTE
  ManagedInstanceGroup g(&loop_, &workload_, &rec_, "mp-0", Options(p), 1);
  EXPECT_EQ(RollOut(&g, 3, p), 2);
  std::set<std::string> after = Names(g);
  for (const std::string& n : before_) EXPECT_EQ(after.count(n), 0u) << "SUBSTITUTE renames";
}

TEST_F(UpdateRolloutTest, DefaultPolicyFinishesThreeVmsInTwoRounds) {
  UpdatePolicy p;
  p.proactive = true;
  ManagedInstanceGroup g(&loop_, &workload_, &rec_, "mp-0", Options(p), 1);
  g.Insert("z", 3, "v1.30.0");
  loop_.Run(5 * kMinute, 10'000'000);
  const Time start = loop_.Now();
  g.SetInstanceTemplate("v1.31.0");
  // Round 1: two created at once (20 s launch); round 2: the third.
  loop_.Run(start + 21 * kSecond, 10'000'000);
  int fresh_running = 0;
  for (const ManagedInstance* m : g.ListManagedInstances()) {
    fresh_running += m->template_version == 2 && m->status == VmStatus::kRunning;
  }
  EXPECT_EQ(fresh_running, 2);
}

TEST_F(UpdateRolloutTest, PercentSurgeOnAHundredCreatesTheSurgeAndUnavailableAtOnce) {
  const UpdatePolicy p = Policy("10%", "5");
  ManagedInstanceGroup g(&loop_, &workload_, &rec_, "mp-0", Options(p), 1);
  EXPECT_EQ(RollOut(&g, 100, p), 15);
}

TEST_F(UpdateRolloutTest, SurgeOnlyKeepsEveryVmServing) {
  const UpdatePolicy p = Policy("1", "0");
  ManagedInstanceGroup g(&loop_, &workload_, &rec_, "mp-0", Options(p), 1);
  EXPECT_EQ(RollOut(&g, 1, p), 1);
}

// A VERIFYING VM is not yet available (docs/reference/providers.md §3.2: RUNNING and, with
// a health check, HEALTHY): with maxUnavailable 0 the old VM stays until the
// new one has passed the autohealing initial delay.
TEST_F(UpdateRolloutTest, SurgeWaitsForTheNewVmToBeVerified) {
  const UpdatePolicy p = Policy("1", "0");
  MigOptions o = Options(p);
  o.autohealing_initial_delay = DistSpec::Constant(60 * kSecond);
  ManagedInstanceGroup g(&loop_, &workload_, &rec_, "mp-0", o, 1);
  g.Insert("z", 1, "v1.30.0");
  loop_.Run(5 * kMinute, 10'000'000);
  const std::set<std::string> old = Names(g);
  const Time start = loop_.Now();
  g.SetInstanceTemplate("v1.31.0");
  auto old_deleting = [&] {
    for (const ManagedInstance* m : g.ListManagedInstances()) {
      if (old.count(m->name) && m->action == Action::kDeleting) return true;
    }
    return false;
  };
  loop_.Run(start + 50 * kSecond, 10'000'000);  // new VM RUNNING at +20 s, VERIFYING
  EXPECT_FALSE(old_deleting()) << "the new VM is still VERIFYING";
  loop_.Run(start + 90 * kSecond, 10'000'000);  // verified at +80 s
  EXPECT_TRUE(old_deleting());
}

TEST_F(UpdateRolloutTest, RecreateKeepsNamesAndNeverSurges) {
  UpdatePolicy p = Policy("1", "2");
  p.replacement = ReplacementMethod::kRecreate;
  ManagedInstanceGroup g(&loop_, &workload_, &rec_, "mp-0", Options(p), 1);
  RollOut(&g, 10, p);
  EXPECT_EQ(Names(g), before_);
  for (const ManagedInstance* m : g.ListManagedInstances()) {
    EXPECT_EQ(m->kubelet_version, "v1.31.0");
    EXPECT_EQ(m->vm_epoch, 2u) << "a new VM under the old name";
  }
}

TEST_F(UpdateRolloutTest, RefreshKeepsTheVmsAndTheirNodes) {
  UpdatePolicy p = Policy("1", "1");
  p.minimal_action = MinimalAction::kRefresh;
  ManagedInstanceGroup g(&loop_, &workload_, &rec_, "mp-0", Options(p), 1);
  RollOut(&g, 3, p);
  EXPECT_EQ(Names(g), before_);
  for (const ManagedInstance* m : g.ListManagedInstances()) {
    EXPECT_EQ(m->vm_epoch, 1u) << "the same VM";
    EXPECT_EQ(m->kubelet_version, "v1.30.0") << "the boot disk stays";
  }
  for (const TimelineRow& r : rec_.rows()) {
    EXPECT_NE(r.to, "TERMINATED") << r.object;
    EXPECT_NE(r.to, "DELETING") << r.object;
  }
}

TEST_F(UpdateRolloutTest, OpportunisticChangesNothing) {
  UpdatePolicy p;
  ManagedInstanceGroup g(&loop_, &workload_, &rec_, "mp-0", Options(p), 1);
  g.Insert("z", 3, "v1.30.0");
  loop_.Run(5 * kMinute, 10'000'000);
  g.SetInstanceTemplate("v1.31.0");
  loop_.Run(kHour, 10'000'000);
  for (const ManagedInstance* m : g.ListManagedInstances()) EXPECT_EQ(m->template_version, 1);
}

std::string Scenario(int replicas, const std::string& mig) {
  return "apiVersion: mpsim/v1\nkind: Scenario\nmetadata: {name: t}\nspec:\n  horizon: 1h\n"
         "  machinePools:\n    - name: mp-0\n      replicas: " +
         std::to_string(replicas) + "\n      provider:\n        mig: " + mig + "\n";
}

std::string LoadError(int replicas, const std::string& mig) {
  proto::Scenario sc;
  std::vector<ScenarioError> errors;
  if (LoadScenarioFromString(Scenario(replicas, mig), "t.yaml", {}, &sc, &errors)) return "";
  std::string out;
  for (const ScenarioError& e : errors) out += e.key + ": " + e.message + "\n";
  return out;
}

TEST(UpdatePolicyKeys, DefaultsAndGoodValuesLoad) {
  proto::Scenario sc;
  std::vector<ScenarioError> errors;
  ASSERT_TRUE(LoadScenarioFromString(Scenario(3, "{}"), "t.yaml", {}, &sc, &errors))
      << LoadError(3, "{}");
  const proto::MigProvider& m = sc.spec().machine_pools(0).mig();
  EXPECT_EQ(m.update_max_surge(), "1");
  EXPECT_EQ(m.update_max_unavailable(), "1");
  EXPECT_EQ(m.update_minimal_action(), "REPLACE");
  EXPECT_EQ(m.update_replacement_method(), "SUBSTITUTE");
  EXPECT_EQ(LoadError(10, "{updateMaxSurge: \"20%\", updateMaxUnavailable: 0}"), "");
  EXPECT_EQ(LoadError(3, "{updateReplacementMethod: RECREATE, updateMaxSurge: 0}"), "");
}

TEST(UpdatePolicyKeys, ValidationErrorsNameTheKey) {
  EXPECT_NE(LoadError(3, "{updateMaxSurge: 0, updateMaxUnavailable: 0}")
                .find("updateMaxSurge: expected updateMaxSurge or updateMaxUnavailable above 0"),
            std::string::npos);
  EXPECT_NE(LoadError(9, "{updateMaxSurge: \"20%\"}").find("at least 10 instances"),
            std::string::npos);
  EXPECT_NE(LoadError(10, "{updateMaxSurge: \"120%\"}").find("updateMaxSurge: expected a count"),
            std::string::npos);
  EXPECT_NE(LoadError(3, "{updateMaxSurge: many}").find("updateMaxSurge"), std::string::npos);
  EXPECT_NE(LoadError(3, "{updateReplacementMethod: RECREATE, updateMaxUnavailable: 0}")
                .find("updateMaxUnavailable: expected above 0"),
            std::string::npos);
  EXPECT_NE(LoadError(3, "{updateMinimalAction: REFRESH, updateMaxUnavailable: 0}")
                .find("updateMaxUnavailable"),
            std::string::npos);
  EXPECT_NE(LoadError(3, "{updateMinimalAction: NONE}").find("updateMinimalAction"),
            std::string::npos);
  EXPECT_NE(LoadError(3, "{updateReplacementMethod: SWAP}").find("updateReplacementMethod"),
            std::string::npos);
}

}  // namespace
}  // namespace mpsim::mig
