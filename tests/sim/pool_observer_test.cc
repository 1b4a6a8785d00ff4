// The pool observer's matching latencies (providerID listed -> Node in
// nodeRefs), its nodeRef timeline rows, the providerIDs left unmatched, and
// its version rows: spec.version and upToDateReplicas.
#include "sim/pool_observer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/testing/fake_client.h"

namespace mpsim {
namespace {

class PoolObserverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    observer_.Track("mp-0", "mp-0-infra", "test");
    infra_.meta.name = "mp-0-infra";
    infra_.meta.ns = "default";
    pool_.meta.name = "mp-0";
    pool_.meta.ns = "default";
  }

  void List(Time t, const std::vector<std::string>& ids) {
    clock_.Set(t);
    infra_.spec.provider_id_list = ProviderIDList(ids);
    Status s = infra_.meta.uid.empty() ? mgmt_.Store<InfraMachinePool>().Create(&infra_)
                                       : mgmt_.Store<InfraMachinePool>().Update(&infra_);
    ASSERT_TRUE(s.ok()) << s.message();
  }
  void AddNode(const std::string& name, const std::string& id, const std::string& version = "") {
    Node n;
    n.meta.name = name;
    n.spec.provider_id = id;
    n.status.node_info.kubelet_version = SharedString(version);
    ASSERT_TRUE(workload_.Store<Node>().Create(&n).ok());
  }
  // The kubelet of `name` registers again with `version`, as a VM recreated under its name does.
  void ReRegister(Time t, const std::string& name, const std::string& version) {
    clock_.Set(t);
    Node n;
    ASSERT_TRUE(workload_.Store<Node>().Get({"", name}, &n).ok());
    n.status.node_info.kubelet_version = SharedString(version);
    ASSERT_TRUE(workload_.Store<Node>().Patch(&n).ok());
  }
  void SetVersion(Time t, const std::string& version) {
    clock_.Set(t);
    pool_.spec.template_.spec.version = version;
    Status s = pool_.meta.uid.empty() ? mgmt_.Store<MachinePool>().Create(&pool_)
                                      : mgmt_.Store<MachinePool>().Update(&pool_);
    ASSERT_TRUE(s.ok()) << s.message();
  }
  // "time_s:from>to" of each MachinePool row of `field`.
  std::vector<std::string> PoolRows(const std::string& field) const {
    std::vector<std::string> out;
    for (const TimelineRow& r : rec_.rows()) {
      if (r.object_kind != "MachinePool" || r.field != field) continue;
      EXPECT_EQ(r.pool, "mp-0");
      out.push_back(std::to_string(r.time / kSecond) + ":" + r.from + ">" + r.to);
    }
    return out;
  }
  void Refs(Time t, const std::vector<std::string>& names) {
    clock_.Set(t);
    std::vector<NodeReference> refs;
    for (const std::string& n : names) refs.push_back(NodeReference{.name = n});
    pool_.status.node_refs = refs;
    Status s = pool_.meta.uid.empty() ? mgmt_.Store<MachinePool>().Create(&pool_)
                                      : mgmt_.Store<MachinePool>().UpdateStatus(&pool_);
    ASSERT_TRUE(s.ok()) << s.message();
  }
  std::vector<std::string> NodeRefRows() const {
    std::vector<std::string> out;
    for (const TimelineRow& r : rec_.rows()) {
      if (r.field == "nodeRef") out.push_back(r.from + ">" + r.to);
    }
    return out;
  }
  const PoolRecord& Record() const { return observer_.pools().at("mp-0"); }

  fake::FakeClock clock_{0};
  ApiServer mgmt_{&clock_};
  ApiServer workload_{&clock_};
  Recorder rec_;
  PoolObserver observer_{&mgmt_, &workload_, &rec_};
  InfraMachinePool infra_;
  MachinePool pool_;
};

TEST_F(PoolObserverTest, LatencyRunsFromTheFirstListingToTheFirstNodeRef) {
  AddNode("a", "test://a");
  AddNode("b", "test://b");
  List(10 * kSecond, {"test://a", "test://b"});
  List(12 * kSecond, {"test://b"});              // a leaves the list...
  List(14 * kSecond, {"test://a", "test://b"});  // ...and comes back: still listed since 10 s
  Refs(20 * kSecond, {"a"});
  Refs(25 * kSecond, {"a", "b"});
  Refs(30 * kSecond, {"b"});
  Refs(35 * kSecond, {"a", "b"});  // a matched again: no second latency
  EXPECT_EQ(Record().matching_latencies, (std::vector<Duration>{10 * kSecond, 15 * kSecond}));
  EXPECT_EQ(NodeRefRows(), (std::vector<std::string>{">a", ">b", "a>", ">a"}));
}

TEST_F(PoolObserverTest, FinishNamesListedIdsOfNoReferencedNodeInIdOrder) {
  AddNode("a", "test://a");
  AddNode("c", "test://c");
  List(1 * kSecond, {"test://d", "test://a", "test://c", "test://b"});
  Refs(2 * kSecond, {"a", "c"});
  observer_.Finish();
  EXPECT_EQ(Record().unmatched_ids, (std::vector<std::string>{"test://b", "test://d"}));
  // The latest versions count: c leaves nodeRefs, b leaves the list.
  List(3 * kSecond, {"test://d", "test://a", "test://c"});
  Refs(4 * kSecond, {"a"});
  observer_.Finish();
  EXPECT_EQ(Record().unmatched_ids, (std::vector<std::string>{"test://c", "test://d"}));
}

TEST_F(PoolObserverTest, SpecVersionChangesAreRows) {
  SetVersion(1 * kSecond, "v1.30.0");
  Refs(2 * kSecond, {});  // a status write: no version row
  SetVersion(3 * kSecond, "v1.31.0");
  EXPECT_EQ(PoolRows("spec.version"),
            (std::vector<std::string>{"1:>v1.30.0", "3:v1.30.0>v1.31.0"}));
}

// upToDateReplicas: the Nodes named in nodeRefs whose kubelet version is the
// spec version, shown whenever the count changes, whatever changed it.
TEST_F(PoolObserverTest, UpToDateCountsReferencedNodesAtTheSpecVersion) {
  AddNode("a", "test://a", "v1.30.0");
  AddNode("b", "test://b", "v1.30.0");
  SetVersion(1 * kSecond, "v1.30.0");
  Refs(2 * kSecond, {"a"});
  Refs(3 * kSecond, {"a", "b"});
  SetVersion(4 * kSecond, "v1.31.0");  // nothing is on the new version
  ReRegister(5 * kSecond, "a", "v1.31.0");
  ReRegister(6 * kSecond, "b", "v1.31.0");
  clock_.Set(7 * kSecond);
  ASSERT_TRUE(workload_.Store<Node>().Delete({"", "a"}).ok());  // still in nodeRefs: not counted
  Refs(9 * kSecond, {"b"});  // a's nodeRef goes: it was not counted any more
  AddNode("c", "test://c", "v1.30.0");
  Refs(10 * kSecond, {"b", "c"});  // on the old version
  EXPECT_EQ(PoolRows("upToDateReplicas"),
            (std::vector<std::string>{"2:0>1", "3:1>2", "4:2>0", "5:0>1", "6:1>2", "7:2>1"}));
  EXPECT_EQ(Record().up_to_date, 1);
}

}  // namespace
}  // namespace mpsim
