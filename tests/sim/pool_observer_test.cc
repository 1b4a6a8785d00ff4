// The pool observer's matching latencies (providerID listed -> Node in
// nodeRefs), its nodeRef timeline rows and the providerIDs left unmatched.
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
  void AddNode(const std::string& name, const std::string& id) {
    Node n;
    n.meta.name = name;
    n.spec.provider_id = id;
    ASSERT_TRUE(workload_.Store<Node>().Create(&n).ok());
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

}  // namespace
}  // namespace mpsim
