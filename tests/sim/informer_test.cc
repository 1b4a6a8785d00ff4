// Informer caches lag the API server but never reorder its events.
#include "sim/informer.h"

#include <gtest/gtest.h>

#include "sim/api_server.h"
#include "sim/event_loop.h"

namespace mpsim {
namespace {

Node MakeNode(const std::string& name) {
  Node n;
  n.meta.name = name;
  return n;
}

TEST(Informer, CacheLagsTheServerByTheSampledLag) {
  EventLoop loop;
  ApiServer server(&loop);
  Informer<Node> inf(&loop, &server.Store<Node>(), DistSpec::Constant(50 * kMillisecond),
                     StreamFor(1, "test"));
  Node n = MakeNode("a");
  ASSERT_TRUE(server.Store<Node>().Create(&n).ok());
  EXPECT_TRUE(inf.cache().empty());
  loop.Run(49 * kMillisecond, 100);
  EXPECT_TRUE(inf.cache().empty());
  loop.Run(50 * kMillisecond, 100);
  EXPECT_EQ(inf.cache().size(), 1u);
}

TEST(Informer, EventsArriveInResourceVersionOrderDespiteRandomLag) {
  EventLoop loop;
  ApiServer server(&loop);
  Informer<Node> inf(&loop, &server.Store<Node>(), DistSpec::Exponential(100 * kMillisecond),
                     StreamFor(3, "test"));
  std::vector<uint64_t> seen;
  inf.AddHandler([&](const WatchEvent<Node>& ev) { seen.push_back(ev.obj.meta.resource_version); });
  for (int i = 0; i < 200; ++i) {
    loop.At(i * kMillisecond, [&server, i] {
      Node n = MakeNode("n" + std::to_string(i % 7));
      if (!server.Store<Node>().Create(&n).ok()) {
        ASSERT_TRUE(server.Store<Node>().Get(n.meta.Key(), &n).ok());
        n.spec.provider_id = "p" + std::to_string(i);
        ASSERT_TRUE(server.Store<Node>().Patch(&n).ok());
      }
    });
  }
  loop.Run(kHour, 100000);
  ASSERT_EQ(seen.size(), 200u);
  for (size_t i = 1; i < seen.size(); ++i) EXPECT_LT(seen[i - 1], seen[i]);
}

TEST(Informer, ModifiedEventCarriesThePreviousCachedState) {
  EventLoop loop;
  ApiServer server(&loop);
  Informer<Node> inf(&loop, &server.Store<Node>(), DistSpec::Constant(0), StreamFor(1, "t"));
  std::vector<std::string> olds;
  inf.AddHandler([&](const WatchEvent<Node>& ev) {
    olds.push_back(ev.old ? ev.old->spec.provider_id : "<none>");
  });
  Node n = MakeNode("a");
  ASSERT_TRUE(server.Store<Node>().Create(&n).ok());
  n.spec.provider_id = "x";
  ASSERT_TRUE(server.Store<Node>().Patch(&n).ok());
  ASSERT_TRUE(server.Store<Node>().Delete(n.meta.Key()).ok());
  loop.Run(kSecond, 100);
  EXPECT_EQ(olds, (std::vector<std::string>{"<none>", "", "<none>"}));
  EXPECT_TRUE(inf.cache().empty());
}

// A leased pointer (what List and GetSharedAll hand out) keeps the object it
// was given even after the cache replaced it, and the cache lets go of the
// replaced object at the first change after the last lease is gone.
TEST(Informer, LeasedObjectsOutliveTheCacheEntryUntilReleased) {
  EventLoop loop;
  ApiServer server(&loop);
  Informer<Node> inf(&loop, &server.Store<Node>(), DistSpec::Constant(kMillisecond),
                     StreamFor(1, "test"));
  Node n = MakeNode("a");
  n.spec.provider_id = "first";
  ASSERT_TRUE(server.Store<Node>().Create(&n).ok());
  loop.Run(kSecond, 100);
  const std::shared_ptr<const Node>* cached = inf.Find({"", "a"});
  ASSERT_NE(cached, nullptr);
  std::weak_ptr<const Node> first = *cached;
  std::shared_ptr<const Node> leased = inf.Lease(cached->get());
  auto patch = [&](const std::string& id) {
    Node m;
    ASSERT_TRUE(server.Store<Node>().Get({"", "a"}, &m).ok());
    m.spec.provider_id = id;
    ASSERT_TRUE(server.Store<Node>().Patch(&m).ok());
    loop.Run(loop.Now() + kSecond, 100);
  };
  patch("second");
  EXPECT_EQ((*inf.Find({"", "a"}))->spec.provider_id, "second");
  EXPECT_FALSE(first.expired());
  EXPECT_EQ(leased->spec.provider_id, "first");
  leased.reset();
  EXPECT_FALSE(first.expired());  // freed at the next change, not at once
  patch("third");
  EXPECT_TRUE(first.expired());
}

}  // namespace
}  // namespace mpsim
