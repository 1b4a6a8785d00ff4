// The ClusterCache's connection as upstream times it (docs/reference/
// docs/reference/capi-core.md §1.14): an attempt every 30 s from the first failed one, a
// probe every 10 s while connected, a disconnect at the fifth failed probe.
#include "sim/cluster_cache.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace mpsim {
namespace {

class ClusterCacheTest : public ::testing::Test {
 protected:
  // The server answers from `up` on, except while cut.
  void Make(Time up) {
    up_ = up;
    cache_ = std::make_unique<ClusterCache>(
        &loop_, [this] { return loop_.Now() >= up_ && !cut_; },
        [this] {
          changes_.push_back(std::to_string(loop_.Now() / kSecond) + " " +
                             (cache_->Connected() ? "connected" : "disconnected"));
        });
  }
  void At(Time t, std::function<void()> f) { loop_.At(t, std::move(f)); }
  void Cut(Time from, Time to) {
    At(from, [this] {
      cut_ = true;
      cache_->ServerChanged();
    });
    At(to, [this] {
      cut_ = false;
      cache_->ServerChanged();
    });
  }
  void RunTo(Time t) { loop_.Run(t, 1'000'000); }

  EventLoop loop_;
  Time up_ = 0;
  bool cut_ = false;
  std::unique_ptr<ClusterCache> cache_;
  std::vector<std::string> changes_;
};

TEST(ClusterCacheConstants, AreUpstreams) {
  // cluster_cache.go buildClusterAccessorConfig: ConnectionCreationRetryInterval
  // 30 s, HealthProbe Interval 10 s, FailureThreshold 5.
  EXPECT_EQ(ClusterCache::kConnectionCreationRetryInterval, 30 * kSecond);
  EXPECT_EQ(ClusterCache::kHealthProbeInterval, 10 * kSecond);
  EXPECT_EQ(ClusterCache::kHealthProbeFailureThreshold, 5);
}

// Attempts at 1, 31, ..., 421 s fail; the one at 451 s, the first after the
// server answers at 430 s, connects: 21 s later, not at once.
TEST_F(ClusterCacheTest, ConnectsAtTheFirstAttemptAfterTheServerAnswers) {
  Make(430 * kSecond);
  EXPECT_FALSE(cache_->Connected());
  At(1 * kSecond, [this] { cache_->Start(); });
  RunTo(450 * kSecond);
  EXPECT_FALSE(cache_->Connected());
  RunTo(451 * kSecond);
  EXPECT_TRUE(cache_->Connected());
  EXPECT_EQ(changes_, (std::vector<std::string>{"451 connected"}));
}

// A Cluster event in between (a second Start) does not move the rhythm.
TEST_F(ClusterCacheTest, AnotherReconcileKeepsTheRhythm) {
  Make(40 * kSecond);
  At(1 * kSecond, [this] { cache_->Start(); });
  At(45 * kSecond, [this] { cache_->Start(); });
  RunTo(2 * kMinute);
  EXPECT_EQ(changes_, (std::vector<std::string>{"61 connected"}));
}

// A server that answers when the cache is made: connected from the start,
// nothing reported, nothing left scheduled.
TEST_F(ClusterCacheTest, ConnectedFromTheStartWhenTheServerAnswers) {
  Make(0);
  EXPECT_TRUE(cache_->Connected());
  At(1 * kSecond, [this] { cache_->Start(); });
  RunTo(1 * kSecond);
  EXPECT_EQ(loop_.Pending(), 0u);
  RunTo(1 * kHour);
  EXPECT_TRUE(changes_.empty());
}

// Probes at 101, 111, 121, 131 and 141 s fail: disconnected at 141 s, then
// attempts at 171, 201 and 231 s; the server answers again from 220 s.
TEST_F(ClusterCacheTest, DisconnectsAtTheFifthFailedProbeAndRetriesEvery30s) {
  Make(0);
  At(1 * kSecond, [this] { cache_->Start(); });
  Cut(100 * kSecond, 220 * kSecond);
  RunTo(140 * kSecond);
  EXPECT_TRUE(cache_->Connected());
  RunTo(1 * kHour);
  EXPECT_EQ(changes_, (std::vector<std::string>{"141 disconnected", "231 connected"}));
}

// Four failed probes, then one that succeeds: still connected, no event.
TEST_F(ClusterCacheTest, ASuccessfulProbeResetsTheFailures) {
  Make(0);
  At(1 * kSecond, [this] { cache_->Start(); });
  Cut(100 * kSecond, 135 * kSecond);
  Cut(145 * kSecond, 175 * kSecond);
  RunTo(1 * kHour);
  EXPECT_TRUE(cache_->Connected());
  EXPECT_TRUE(changes_.empty());
}

}  // namespace
}  // namespace mpsim
