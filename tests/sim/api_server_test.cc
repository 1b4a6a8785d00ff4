// The simulated API server's write semantics: optimistic concurrency,
// generation vs resourceVersion, finalizers, no-op writes and watch order.
#include "sim/api_server.h"

#include <gtest/gtest.h>

namespace mpsim {
namespace {

class FixedClock : public Clock {
 public:
  Time Now() const override { return now; }
  Time now = 0;
};

class ApiServerTest : public ::testing::Test {
 protected:
  MachinePool NewPool(const std::string& name) {
    MachinePool mp;
    mp.meta.name = name;
    mp.meta.ns = "default";
    mp.spec.replicas = 1;
    return mp;
  }
  FixedClock clock_;
  ApiServer server_{&clock_};
  ObjectStore<MachinePool>& pools_ = server_.Store<MachinePool>();
};

TEST_F(ApiServerTest, CreateAssignsIdentityAndRejectsDuplicates) {
  clock_.now = 7;
  MachinePool mp = NewPool("a");
  ASSERT_TRUE(pools_.Create(&mp).ok());
  EXPECT_EQ(mp.meta.uid, "machinepool-1");
  EXPECT_EQ(mp.meta.generation, 1);
  EXPECT_EQ(mp.meta.resource_version, 1u);
  EXPECT_EQ(mp.meta.creation_timestamp, 7);
  MachinePool dup = NewPool("a");
  EXPECT_EQ(pools_.Create(&dup).code(), Status::Code::kAlreadyExists);
}

// Lookups go through a hashed index beside the ordered map: it must follow
// every create, update and removal, and a name may come back after removal.
TEST_F(ApiServerTest, FindFollowsCreateUpdateRemoveAndRecreate) {
  MachinePool a = NewPool("a"), b = NewPool("b");
  ASSERT_TRUE(pools_.Create(&a).ok());
  ASSERT_TRUE(pools_.Create(&b).ok());
  a.spec.replicas = 5;
  ASSERT_TRUE(pools_.Update(&a).ok());
  ASSERT_NE(pools_.Find({"default", "a"}), nullptr);
  EXPECT_EQ(pools_.Find({"default", "a"})->spec.replicas, 5);
  EXPECT_EQ(pools_.Find({"other", "a"}), nullptr) << "the namespace is part of the key";
  ASSERT_TRUE(pools_.Delete({"default", "a"}).ok());
  EXPECT_EQ(pools_.Find({"default", "a"}), nullptr);
  EXPECT_EQ(pools_.objects().size(), 1u);
  MachinePool again = NewPool("a");
  ASSERT_TRUE(pools_.Create(&again).ok());
  ASSERT_NE(pools_.Find({"default", "a"}), nullptr);
  EXPECT_EQ(pools_.Find({"default", "a"})->meta.uid, again.meta.uid);
  EXPECT_NE(again.meta.uid, a.meta.uid);
  EXPECT_EQ(pools_.Find({"default", "b"})->meta.uid, b.meta.uid);
}

TEST_F(ApiServerTest, UpdateWithStaleResourceVersionConflicts) {
  MachinePool mp = NewPool("a");
  ASSERT_TRUE(pools_.Create(&mp).ok());
  MachinePool stale = mp;
  mp.spec.replicas = 2;
  ASSERT_TRUE(pools_.Update(&mp).ok());
  stale.spec.replicas = 3;
  Status s = pools_.Update(&stale);
  EXPECT_TRUE(s.IsConflict());
  MachinePool got;
  ASSERT_TRUE(pools_.Get({"default", "a"}, &got).ok());
  EXPECT_EQ(got.spec.replicas, 2);
}

TEST_F(ApiServerTest, GenerationBumpsOnSpecChangeOnly) {
  MachinePool mp = NewPool("a");
  ASSERT_TRUE(pools_.Create(&mp).ok());
  mp.status.phase = "Pending";
  ASSERT_TRUE(pools_.UpdateStatus(&mp).ok());
  EXPECT_EQ(mp.meta.generation, 1);
  EXPECT_EQ(mp.meta.resource_version, 2u);
  mp.spec.replicas = 5;
  ASSERT_TRUE(pools_.Update(&mp).ok());
  EXPECT_EQ(mp.meta.generation, 2);
  EXPECT_EQ(mp.meta.resource_version, 3u);
  mp.meta.labels["a"] = "b";
  ASSERT_TRUE(pools_.Update(&mp).ok());
  EXPECT_EQ(mp.meta.generation, 2);
  EXPECT_EQ(mp.meta.resource_version, 4u);
}

TEST_F(ApiServerTest, UpdateDoesNotWriteStatusAndUpdateStatusDoesNotWriteSpec) {
  MachinePool mp = NewPool("a");
  ASSERT_TRUE(pools_.Create(&mp).ok());
  MachinePool w = mp;
  w.status.phase = "Running";
  w.spec.replicas = 9;
  ASSERT_TRUE(pools_.Update(&w).ok());
  EXPECT_EQ(w.status.phase, "");
  EXPECT_EQ(w.spec.replicas, 9);
  w.spec.replicas = 4;
  w.status.phase = "Running";
  ASSERT_TRUE(pools_.UpdateStatus(&w).ok());
  EXPECT_EQ(w.spec.replicas, 9);
  EXPECT_EQ(w.status.phase, "Running");
}

TEST_F(ApiServerTest, NoOpPatchNeitherBumpsNorNotifies) {
  int events = 0;
  pools_.Watch([&](auto, const auto&, const auto&) { ++events; });
  MachinePool mp = NewPool("a");
  ASSERT_TRUE(pools_.Create(&mp).ok());
  ASSERT_TRUE(pools_.Patch(&mp).ok());
  EXPECT_EQ(mp.meta.resource_version, 1u);
  EXPECT_EQ(events, 1);
}

TEST_F(ApiServerTest, DeleteWithFinalizersSetsTimestampThenRemovesWhenLastGoes) {
  std::vector<WatchEvent<MachinePool>::Type> seen;
  pools_.Watch([&](auto t, const auto&, const auto&) { seen.push_back(t); });
  MachinePool mp = NewPool("a");
  mp.meta.finalizers = {"machinepool.cluster.x-k8s.io", "other"};
  ASSERT_TRUE(pools_.Create(&mp).ok());
  clock_.now = 50;
  ASSERT_TRUE(pools_.Delete({"default", "a"}).ok());
  ASSERT_TRUE(pools_.Get({"default", "a"}, &mp).ok());
  EXPECT_EQ(mp.meta.deletion_timestamp, 50);
  mp.meta.finalizers = {"other"};
  ASSERT_TRUE(pools_.Patch(&mp).ok());
  ASSERT_TRUE(pools_.Get({"default", "a"}, &mp).ok());
  mp.meta.finalizers.clear();
  ASSERT_TRUE(pools_.Patch(&mp).ok());
  EXPECT_TRUE(pools_.Get({"default", "a"}, &mp).IsNotFound());
  using T = WatchEvent<MachinePool>::Type;
  EXPECT_EQ(seen, (std::vector<T>{T::kAdded, T::kModified, T::kModified, T::kDeleted}));
}

TEST_F(ApiServerTest, ClientCannotClearDeletionTimestampOrChangeUid) {
  MachinePool mp = NewPool("a");
  mp.meta.finalizers = {"f"};
  ASSERT_TRUE(pools_.Create(&mp).ok());
  ASSERT_TRUE(pools_.Delete({"default", "a"}).ok());
  ASSERT_TRUE(pools_.Get({"default", "a"}, &mp).ok());
  mp.meta.deletion_timestamp.reset();
  mp.meta.uid = "forged";
  mp.meta.labels["x"] = "y";
  ASSERT_TRUE(pools_.Patch(&mp).ok());
  EXPECT_TRUE(mp.meta.deletion_timestamp.has_value());
  EXPECT_EQ(mp.meta.uid, "machinepool-1");
}

TEST_F(ApiServerTest, ResourceVersionIsSharedAcrossKinds) {
  MachinePool mp = NewPool("a");
  ASSERT_TRUE(pools_.Create(&mp).ok());
  Cluster c;
  c.meta.name = "c";
  ASSERT_TRUE(server_.Store<Cluster>().Create(&c).ok());
  EXPECT_EQ(c.meta.resource_version, 2u);
  EXPECT_EQ(server_.counters().writes, 2u);
}

TEST_F(ApiServerTest, MissingObjectsAreNotFound) {
  MachinePool mp = NewPool("ghost");
  EXPECT_TRUE(pools_.Update(&mp).IsNotFound());
  EXPECT_TRUE(pools_.Patch(&mp).IsNotFound());
  EXPECT_TRUE(pools_.Delete({"default", "ghost"}).IsNotFound());
}

// A delete's propagationPolicy decides the garbage collector's finalizers
// (docs/reference/garbage-collection.md §2): both off, then the policy's on;
// without any finalizer left the object goes at once.
TEST_F(ApiServerTest, DeletePropagationSetsTheCollectorsFinalizers) {
  clock_.now = 5;
  MachinePool mp = NewPool("fg");
  mp.meta.finalizers = {"x/y", kFinalizerOrphanDependents};
  ASSERT_TRUE(pools_.Create(&mp).ok());
  ASSERT_TRUE(pools_.Delete({"default", "fg"}, DeletionPropagation::kForeground).ok());
  EXPECT_EQ(pools_.Find({"default", "fg"})->meta.finalizers,
            (std::vector<std::string>{"x/y", kFinalizerDeleteDependents}));
  EXPECT_EQ(pools_.Find({"default", "fg"})->meta.deletion_timestamp, 5);
  clock_.now = 9;  // a second delete changes the finalizers, not the timestamp
  ASSERT_TRUE(pools_.Delete({"default", "fg"}, DeletionPropagation::kOrphan).ok());
  EXPECT_EQ(pools_.Find({"default", "fg"})->meta.finalizers,
            (std::vector<std::string>{"x/y", kFinalizerOrphanDependents}));
  EXPECT_EQ(pools_.Find({"default", "fg"})->meta.deletion_timestamp, 5);

  MachinePool bg = NewPool("bg");
  bg.meta.finalizers = {kFinalizerDeleteDependents};
  ASSERT_TRUE(pools_.Create(&bg).ok());
  ASSERT_TRUE(pools_.Delete({"default", "bg"}, DeletionPropagation::kBackground).ok());
  EXPECT_EQ(pools_.Find({"default", "bg"}), nullptr);
}

}  // namespace
}  // namespace mpsim
