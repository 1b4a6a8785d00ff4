// Kubernetes' garbage collector on the simulated API server
// (sim/garbage_collector.h). Expected behaviour from Kubernetes' integration
// tests (test/integration/garbagecollector/garbage_collector_test.go:
// TestCascadingDeletion, TestBlockingOwnerRefDoesBlock,
// TestNonBlockingOwnerRefDoesNotBlock, TestOrphaning,
// TestCustomResourceCascadingDeletion) and the documented propagation
// policies (docs/reference/garbage-collection.md).
#include "sim/garbage_collector.h"

#include <gtest/gtest.h>

namespace mpsim {
namespace {

constexpr Duration kGcTestLag = 50 * kMillisecond;

class GarbageCollectorTest : public ::testing::Test {
 protected:
  GarbageCollectorTest()
      : server_(&loop_), gc_(&loop_, &server_, DistSpec::Constant(kGcTestLag), 1) {}

  // A Cluster as the owner: any kind works, the collector reads only metadata.
  Cluster MakeOwner(const std::string& name, std::vector<std::string> finalizers = {}) {
    Cluster c;
    c.meta = {.name = name, .ns = "default"};
    c.meta.finalizers = std::move(finalizers);
    EXPECT_TRUE(server_.Store<Cluster>().Create(&c).ok());
    return c;
  }
  template <class T>
  T MakeDependent(const std::string& name, const ObjectMeta& owner, const char* owner_kind,
                  bool block, std::vector<std::string> finalizers = {}) {
    T obj;
    obj.meta = {.name = name, .ns = "default"};
    obj.meta.owner_references = {{.api_version = "cluster.x-k8s.io/v1beta2",
                                  .kind = owner_kind,
                                  .name = owner.name,
                                  .uid = owner.uid,
                                  .block_owner_deletion = block}};
    obj.meta.finalizers = std::move(finalizers);
    EXPECT_TRUE(server_.Store<T>().Create(&obj).ok());
    return obj;
  }
  void Settle() { loop_.Run(loop_.Now() + 10 * kSecond, 100000); }
  template <class T>
  std::shared_ptr<const T> Get(const std::string& name) {
    return server_.Store<T>().Find(ObjectKey{"default", name});
  }
  // Releases an object's finalizer that no controller handles ("x/y").
  template <class T>
  void DropFinalizers(const std::string& name) {
    T obj = *Get<T>(name);
    obj.meta.finalizers.clear();
    ASSERT_TRUE(server_.Store<T>().Patch(&obj).ok());
  }

  EventLoop loop_;
  ApiServer server_;
  GarbageCollector gc_;
};

// Background (the default): the owner goes at once, its dependents after,
// when the collector has seen the owner's delete.
TEST_F(GarbageCollectorTest, BackgroundDeletesDependentsAfterTheOwner) {
  Cluster owner = MakeOwner("rc");
  MakeDependent<MachinePool>("pod-0", owner.meta, "Cluster", false);
  MakeDependent<MachinePool>("pod-1", owner.meta, "Cluster", true);
  Settle();
  ASSERT_TRUE(
      server_.Store<Cluster>().Delete({"default", "rc"}, DeletionPropagation::kBackground).ok());
  EXPECT_EQ(Get<Cluster>("rc"), nullptr);
  EXPECT_NE(Get<MachinePool>("pod-0"), nullptr);  // not before the collector hears of it
  const Time deleted = loop_.Now();
  Settle();
  EXPECT_EQ(Get<MachinePool>("pod-0"), nullptr);
  EXPECT_EQ(Get<MachinePool>("pod-1"), nullptr);
  EXPECT_GE(loop_.Now(), deleted + kGcTestLag);
  EXPECT_EQ(gc_.Deletes(), 2u);
}

// A dependent with another, live owner is not garbage; it loses only the
// reference to the deleted owner.
TEST_F(GarbageCollectorTest, SolidOwnerKeepsTheDependent) {
  Cluster a = MakeOwner("a");
  Cluster b = MakeOwner("b");
  MachinePool dep = MakeDependent<MachinePool>("dep", a.meta, "Cluster", false);
  dep.meta.owner_references.push_back({.api_version = "cluster.x-k8s.io/v1beta2",
                                       .kind = "Cluster",
                                       .name = "b",
                                       .uid = b.meta.uid});
  ASSERT_TRUE(server_.Store<MachinePool>().Patch(&dep).ok());
  Settle();
  ASSERT_TRUE(server_.Store<Cluster>().Delete({"default", "a"}).ok());
  Settle();
  ASSERT_NE(Get<MachinePool>("dep"), nullptr);
  ASSERT_EQ(Get<MachinePool>("dep")->meta.owner_references.size(), 1u);
  EXPECT_EQ(Get<MachinePool>("dep")->meta.owner_references[0].name, "b");
}

// Foreground (TestCustomResourceCascadingDeletion): the owner waits with
// foregroundDeletion until its dependents are gone, then goes.
TEST_F(GarbageCollectorTest, ForegroundDeletesDependentsFirst) {
  Cluster owner = MakeOwner("owner");
  MakeDependent<MachinePool>("dependent", owner.meta, "Cluster", true);
  Settle();
  ASSERT_TRUE(
      server_.Store<Cluster>().Delete({"default", "owner"}, DeletionPropagation::kForeground).ok());
  auto waiting = Get<Cluster>("owner");
  ASSERT_NE(waiting, nullptr);
  EXPECT_TRUE(waiting->meta.deletion_timestamp);
  EXPECT_EQ(waiting->meta.finalizers, std::vector<std::string>{kFinalizerDeleteDependents});
  Settle();
  EXPECT_EQ(Get<MachinePool>("dependent"), nullptr);
  EXPECT_EQ(Get<Cluster>("owner"), nullptr);
}

// TestBlockingOwnerRefDoesBlock: a blocking dependent that cannot go (a
// finalizer nobody handles) keeps the owner; once it goes, the owner follows.
TEST_F(GarbageCollectorTest, BlockingDependentHoldsTheOwner) {
  Cluster owner = MakeOwner("rc");
  MakeDependent<MachinePool>("pod", owner.meta, "Cluster", true, {"x/y"});
  Settle();
  ASSERT_TRUE(
      server_.Store<Cluster>().Delete({"default", "rc"}, DeletionPropagation::kForeground).ok());
  Settle();
  ASSERT_NE(Get<Cluster>("rc"), nullptr);
  ASSERT_NE(Get<MachinePool>("pod"), nullptr);
  EXPECT_TRUE(Get<MachinePool>("pod")->meta.deletion_timestamp);
  DropFinalizers<MachinePool>("pod");
  Settle();
  EXPECT_EQ(Get<MachinePool>("pod"), nullptr);
  EXPECT_EQ(Get<Cluster>("rc"), nullptr);
}

// A blocking reference that stops blocking releases the owner
// (graph_builder.go addUnblockedOwnersToDeleteQueue).
TEST_F(GarbageCollectorTest, UnblockedReferenceReleasesTheOwner) {
  Cluster owner = MakeOwner("rc");
  MakeDependent<MachinePool>("pod", owner.meta, "Cluster", true, {"x/y"});
  Settle();
  ASSERT_TRUE(
      server_.Store<Cluster>().Delete({"default", "rc"}, DeletionPropagation::kForeground).ok());
  Settle();
  ASSERT_NE(Get<Cluster>("rc"), nullptr);
  MachinePool pod = *Get<MachinePool>("pod");
  pod.meta.owner_references[0].block_owner_deletion = false;
  ASSERT_TRUE(server_.Store<MachinePool>().Patch(&pod).ok());
  Settle();
  EXPECT_EQ(Get<Cluster>("rc"), nullptr);
  EXPECT_NE(Get<MachinePool>("pod"), nullptr);
}

// TestNonBlockingOwnerRefDoesNotBlock: dependents without blockOwnerDeletion
// are deleted too, but the owner does not wait for them.
TEST_F(GarbageCollectorTest, NonBlockingDependentsDoNotHoldTheOwner) {
  Cluster owner = MakeOwner("rc");
  MakeDependent<MachinePool>("pod-0", owner.meta, "Cluster", false, {"x/y"});
  MakeDependent<MachinePool>("pod-1", owner.meta, "Cluster", false, {"x/y"});
  Settle();
  ASSERT_TRUE(
      server_.Store<Cluster>().Delete({"default", "rc"}, DeletionPropagation::kForeground).ok());
  Settle();
  EXPECT_EQ(Get<Cluster>("rc"), nullptr);
  ASSERT_NE(Get<MachinePool>("pod-0"), nullptr);
  ASSERT_NE(Get<MachinePool>("pod-1"), nullptr);
  EXPECT_TRUE(Get<MachinePool>("pod-0")->meta.deletion_timestamp);
}

// TestOrphaning: the owner's orphan finalizer stays until every dependent
// has lost its reference to the owner; the dependents stay.
TEST_F(GarbageCollectorTest, OrphanRemovesReferencesAndKeepsDependents) {
  Cluster owner = MakeOwner("rc");
  MakeDependent<MachinePool>("pod-0", owner.meta, "Cluster", true);
  MakeDependent<Machine>("pod-1", owner.meta, "Cluster", false);
  Settle();
  ASSERT_TRUE(
      server_.Store<Cluster>().Delete({"default", "rc"}, DeletionPropagation::kOrphan).ok());
  EXPECT_EQ(Get<Cluster>("rc")->meta.finalizers,
            std::vector<std::string>{kFinalizerOrphanDependents});
  Settle();
  EXPECT_EQ(Get<Cluster>("rc"), nullptr);
  ASSERT_NE(Get<MachinePool>("pod-0"), nullptr);
  ASSERT_NE(Get<Machine>("pod-1"), nullptr);
  EXPECT_TRUE(Get<MachinePool>("pod-0")->meta.owner_references.empty());
  EXPECT_TRUE(Get<Machine>("pod-1")->meta.owner_references.empty());
  EXPECT_FALSE(Get<MachinePool>("pod-0")->meta.deletion_timestamp);
}

// A chain: a foreground delete of the head goes down the chain (a middle
// dependent with dependents of its own is deleted in the foreground too) and
// the objects go from the tail up.
TEST_F(GarbageCollectorTest, ForegroundChainGoesTailFirst) {
  Cluster head = MakeOwner("head");
  MachinePool middle = MakeDependent<MachinePool>("middle", head.meta, "Cluster", true);
  MakeDependent<Machine>("tail", middle.meta, "MachinePool", true, {"x/y"});
  Settle();
  ASSERT_TRUE(
      server_.Store<Cluster>().Delete({"default", "head"}, DeletionPropagation::kForeground).ok());
  Settle();
  // The tail holds the middle, which holds the head.
  ASSERT_NE(Get<Machine>("tail"), nullptr);
  ASSERT_NE(Get<MachinePool>("middle"), nullptr);
  EXPECT_EQ(Get<MachinePool>("middle")->meta.finalizers,
            std::vector<std::string>{kFinalizerDeleteDependents});
  ASSERT_NE(Get<Cluster>("head"), nullptr);
  DropFinalizers<Machine>("tail");
  Settle();
  EXPECT_EQ(Get<Machine>("tail"), nullptr);
  EXPECT_EQ(Get<MachinePool>("middle"), nullptr);
  EXPECT_EQ(Get<Cluster>("head"), nullptr);
  EXPECT_EQ(gc_.GraphSize(), 0u);
}

// A background delete of the head removes the chain level by level, each a
// collector lag after the one above.
TEST_F(GarbageCollectorTest, BackgroundChainGoesLevelByLevel) {
  Cluster head = MakeOwner("head");
  MachinePool middle = MakeDependent<MachinePool>("middle", head.meta, "Cluster", false);
  MakeDependent<Machine>("tail", middle.meta, "MachinePool", false);
  Settle();
  const Time start = loop_.Now();
  ASSERT_TRUE(server_.Store<Cluster>().Delete({"default", "head"}).ok());
  loop_.Run(start + kGcTestLag, 1000);
  EXPECT_EQ(Get<MachinePool>("middle"), nullptr);
  EXPECT_NE(Get<Machine>("tail"), nullptr);
  loop_.Run(start + 2 * kGcTestLag, 1000);
  EXPECT_EQ(Get<Machine>("tail"), nullptr);
}

// A dependent whose owner never existed (a dangling reference) is garbage.
TEST_F(GarbageCollectorTest, DanglingOwnerMakesGarbage) {
  ObjectMeta ghost{
      .uid = SharedString(std::string_view("cluster-404")), .name = "ghost", .ns = "default"};
  MakeDependent<MachinePool>("orphaned", ghost, "Cluster", false);
  Settle();
  EXPECT_EQ(Get<MachinePool>("orphaned"), nullptr);
}

// The provider's kind in a reference finds the infrastructure object.
TEST_F(GarbageCollectorTest, ReferencesByProviderKind) {
  InfraMachinePool imp;
  imp.meta = {.name = "mp-0", .ns = "default"};
  imp.kind = "TestMachinePool";
  ASSERT_TRUE(server_.Store<InfraMachinePool>().Create(&imp).ok());
  MakeDependent<InfraMachine>("mp-0-a", imp.meta, "TestMachinePool", false);
  Settle();
  ASSERT_NE(Get<InfraMachine>("mp-0-a"), nullptr);
  ASSERT_TRUE(server_.Store<InfraMachinePool>().Delete({"default", "mp-0"}).ok());
  Settle();
  EXPECT_EQ(Get<InfraMachine>("mp-0-a"), nullptr);
}

}  // namespace
}  // namespace mpsim
