#include "sim/work_queue.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "sim/rate_limit.h"

namespace mpsim {
namespace {

constexpr uint64_t kBudget = 1'000'000;

Request Key(const std::string& name) { return Request{ObjectKey{"default", name}}; }

WorkQueueOptions Opts(int workers, RateLimitPolicy policy, Duration busy) {
  WorkQueueOptions o;
  o.workers = workers;
  o.policy = policy;
  o.sync_period = 0;
  o.reconcile_duration = DistSpec::Constant(busy);
  return o;
}

struct Requeue {
  Request request;
  RequeueReason why;
  Duration delay;
  Time at;
};

class WorkQueueTest : public ::testing::Test {
 protected:
  WorkQueue& Make(WorkQueueOptions opts) {
    queue_ = std::make_unique<WorkQueue>(
        &loop_, Rng(7), std::move(opts),
        [this](const Request& r, Result* res) {
          ++calls_;
          return behaviour_ ? behaviour_(r, res) : Status::Ok();
        },
        [this] { return keys_; });
    queue_->OnReconcile([this](const ReconcileRecord& r) { records_.push_back(r); });
    queue_->OnRequeue([this](const Request& r, RequeueReason why, Duration d) {
      requeues_.push_back({r, why, d, loop_.Now()});
    });
    return *queue_;
  }
  // Runs f at simulated time t.
  void At(Time t, std::function<void()> f) { loop_.At(t, std::move(f)); }
  void RunUntil(Time horizon) { loop_.Run(horizon, kBudget); }

  std::vector<Time> Starts(const std::string& name = "") const {
    std::vector<Time> out;
    for (const auto& r : records_) {
      if (name.empty() || r.request.key.name == name) out.push_back(r.start);
    }
    return out;
  }
  std::vector<Duration> Delays(RequeueReason why) const {
    std::vector<Duration> out;
    for (const auto& q : requeues_) {
      if (q.why == why) out.push_back(q.delay);
    }
    return out;
  }

  EventLoop loop_;  // first: outlives the queue
  std::function<Status(const Request&, Result*)> behaviour_;
  std::vector<Request> keys_;
  int calls_ = 0;
  std::vector<ReconcileRecord> records_;
  std::vector<Requeue> requeues_;
  std::unique_ptr<WorkQueue> queue_;
};

Status Fail(const Request&, Result*) { return Status::Unavailable("boom"); }

// ---- RateLimitPolicy ----

TEST(WorkQueuePolicyTest, ClusterApiBackoffSequence) {
  const RateLimitPolicy p = RateLimitPolicy::ClusterApi();
  EXPECT_EQ(p.Backoff(0), 1'005'000);
  EXPECT_EQ(p.Backoff(1), 1'010'000);
  EXPECT_EQ(p.Backoff(2), 1'020'000);
  EXPECT_EQ(p.Backoff(3), 1'040'000);
  EXPECT_EQ(p.Backoff(4), 1'080'000);
  EXPECT_EQ(p.Backoff(5), 1'160'000);
  EXPECT_EQ(p.Backoff(10), 6'120'000);
  EXPECT_EQ(p.Backoff(17), 656'360'000);
  EXPECT_EQ(p.min_interval, 1'000'000);
  EXPECT_EQ(p.min_requeue_after, 1'000'000);
}

TEST(WorkQueuePolicyTest, ControllerRuntimeDefaultBackoffSequence) {
  const RateLimitPolicy p = RateLimitPolicy::ControllerRuntimeDefault();
  EXPECT_EQ(p.Backoff(0), 5'000);
  EXPECT_EQ(p.Backoff(1), 10'000);
  EXPECT_EQ(p.Backoff(2), 20'000);
  EXPECT_EQ(p.Backoff(3), 40'000);
  EXPECT_EQ(p.Backoff(4), 80'000);
  EXPECT_EQ(p.Backoff(10), 5'120'000);
  EXPECT_EQ(p.Backoff(17), 655'360'000);
  EXPECT_EQ(p.min_interval, 0);
  EXPECT_EQ(p.min_requeue_after, 0);
}

TEST(WorkQueuePolicyTest, CapAt1000Seconds) {
  for (const RateLimitPolicy& p :
       {RateLimitPolicy::ClusterApi(), RateLimitPolicy::ControllerRuntimeDefault()}) {
    EXPECT_EQ(p.Backoff(18), 1'000'000'000);  // 5 ms * 2^18 = 1310.72 s
    EXPECT_EQ(p.Backoff(61), 1'000'000'000);
    EXPECT_EQ(p.Backoff(62), 1'000'000'000);
    EXPECT_EQ(p.Backoff(1'000'000), 1'000'000'000);
  }
  RateLimitPolicy odd;
  odd.backoff_offset = 2 * kSecond;
  odd.backoff_cap = kSecond;
  EXPECT_EQ(odd.Backoff(0), kSecond);
}

// ---- queue ----

TEST_F(WorkQueueTest, TenAddsInOneInstantGiveOneReconcile) {
  WorkQueue& q = Make(Opts(1, RateLimitPolicy::ControllerRuntimeDefault(), 0));
  for (int i = 0; i < 10; ++i) q.Add(Key("a"));
  EXPECT_EQ(q.pending(), 1u);
  RunUntil(kMinute);
  ASSERT_EQ(records_.size(), 1u);
  EXPECT_EQ(records_[0].start, 0);
  EXPECT_EQ(q.reconciles(), 1u);
  EXPECT_EQ(q.pending(), 0u);
  EXPECT_EQ(Delays(RequeueReason::kEvent).size(), 10u);
}

// controller.reconcileCost: a reconcile that lists N objects keeps its worker
// busy for the base time plus N times the cost of one object; without a cost
// per object, the base alone.
TEST_F(WorkQueueTest, ReconcileCostGrowsWithTheObjectsListed) {
  uint64_t listed = 0;
  WorkQueueOptions o = Opts(1, RateLimitPolicy::ClusterApi(), 20 * kMillisecond);
  o.per_object_listed = 5;  // microseconds
  o.objects_listed = [&listed] { return listed; };
  behaviour_ = [&listed](const Request& r, Result*) {
    listed += r.key.name == "big" ? 10'000 : 10;
    return Status::Ok();
  };
  WorkQueue& q = Make(std::move(o));
  At(0, [&] { q.Add(Key("big")); });
  At(kSecond, [&] { q.Add(Key("small")); });
  RunUntil(2 * kSecond);
  ASSERT_EQ(records_.size(), 2u);
  EXPECT_EQ(records_[0].end - records_[0].start, 20 * kMillisecond + 50 * kMillisecond);
  EXPECT_EQ(records_[1].end - records_[1].start, 20 * kMillisecond + 50);
}

TEST_F(WorkQueueTest, NoCostPerObjectLeavesTheBaseTime) {
  uint64_t listed = 0;
  WorkQueueOptions o = Opts(1, RateLimitPolicy::ClusterApi(), 20 * kMillisecond);
  o.objects_listed = [&listed] { return listed; };
  behaviour_ = [&listed](const Request&, Result*) {
    listed += 10'000;
    return Status::Ok();
  };
  WorkQueue& q = Make(std::move(o));
  At(0, [&] { q.Add(Key("big")); });
  RunUntil(kSecond);
  ASSERT_EQ(records_.size(), 1u);
  EXPECT_EQ(records_[0].end - records_[0].start, 20 * kMillisecond);
}

TEST_F(WorkQueueTest, AddsWhileProcessingRequeueExactlyOnce) {
  WorkQueue& q = Make(Opts(1, RateLimitPolicy::ControllerRuntimeDefault(), 2 * kSecond));
  q.Add(Key("a"));
  for (Time t : {500'000, 1'000'000, 1'500'000}) At(t, [&q] { q.Add(Key("a")); });
  RunUntil(kMinute);
  ASSERT_EQ(records_.size(), 2u);
  EXPECT_EQ(records_[0].start, 0);
  EXPECT_EQ(records_[0].end, 2'000'000);
  EXPECT_EQ(records_[1].start, 2'000'000);
  EXPECT_EQ(records_[1].end, 4'000'000);
}

TEST_F(WorkQueueTest, NeverTwoWorkersOnOneKey) {
  WorkQueue& q = Make(Opts(5, RateLimitPolicy::ControllerRuntimeDefault(), kSecond));
  q.Add(Key("a"));
  q.Add(Key("b"));
  for (int i = 1; i <= 29; ++i) At(i * 100'000, [&q] { q.Add(Key("a")); });
  RunUntil(kMinute);
  EXPECT_EQ(Starts("a"), (std::vector<Time>{0, 1'000'000, 2'000'000, 3'000'000}));
  EXPECT_EQ(Starts("b"), (std::vector<Time>{0}));
  for (size_t i = 1; i < records_.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (records_[i].request != records_[j].request) continue;
      EXPECT_LE(records_[j].end, records_[i].start);
    }
  }
}

TEST_F(WorkQueueTest, AtMostWorkersReconcilesAtOnce) {
  WorkQueue& q = Make(Opts(3, RateLimitPolicy::ControllerRuntimeDefault(), kSecond));
  for (int i = 0; i < 10; ++i) q.Add(Key("k" + std::to_string(i)));
  RunUntil(kMinute);
  ASSERT_EQ(records_.size(), 10u);
  const std::vector<Time> want = {0,         0,         0,         1'000'000, 1'000'000,
                                  1'000'000, 2'000'000, 2'000'000, 2'000'000, 3'000'000};
  EXPECT_EQ(Starts(), want);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(records_[i].request, Key("k" + std::to_string(i)));
}

TEST_F(WorkQueueTest, ClusterApiErrorBackoffSchedule) {
  WorkQueue& q = Make(Opts(1, RateLimitPolicy::ClusterApi(), 0));
  behaviour_ = Fail;
  q.Add(Key("a"));
  RunUntil(10 * kSecond);
  const std::vector<Time> want = {0,         1'005'000, 2'015'000, 3'035'000, 4'075'000,
                                  5'155'000, 6'315'000, 7'635'000, 9'275'000};
  EXPECT_EQ(Starts(), want);
  const std::vector<Duration> delays = {1'005'000, 1'010'000, 1'020'000, 1'040'000, 1'080'000,
                                        1'160'000, 1'320'000, 1'640'000, 2'280'000};
  EXPECT_EQ(Delays(RequeueReason::kBackoff), delays);
  EXPECT_TRUE(Delays(RequeueReason::kRateLimit).empty());
  EXPECT_EQ(q.errors(), 9u);
  EXPECT_EQ(q.failures(Key("a")), 9);
}

TEST_F(WorkQueueTest, ControllerRuntimeErrorBackoffSchedule) {
  WorkQueue& q = Make(Opts(1, RateLimitPolicy::ControllerRuntimeDefault(), 0));
  behaviour_ = Fail;
  q.Add(Key("a"));
  RunUntil(200'000);
  EXPECT_EQ(Starts(), (std::vector<Time>{0, 5'000, 15'000, 35'000, 75'000, 155'000}));
  EXPECT_EQ(Delays(RequeueReason::kBackoff),
            (std::vector<Duration>{5'000, 10'000, 20'000, 40'000, 80'000, 160'000}));
}

// controller-runtime's overall bucket (docs/reference/providers.md §0.1: 10 qps, burst
// 100): 150 keys failing in one instant get their 5 ms backoff while the
// burst lasts; past it each waits 100 ms more than the one before.
TEST_F(WorkQueueTest, ControllerRuntimeOverallBucketSpreadsManyKeysRetries) {
  WorkQueue& q = Make(Opts(1, RateLimitPolicy::ControllerRuntimeDefault(), 0));
  behaviour_ = [this](const Request&, Result*) {
    return calls_ <= 150 ? Status::Unavailable("throttled") : Status::Ok();
  };
  for (int i = 0; i < 150; ++i) q.Add(Key("k" + std::to_string(1000 + i)));
  RunUntil(kMinute);
  const std::vector<Duration> delays = Delays(RequeueReason::kBackoff);
  ASSERT_EQ(delays.size(), 150u);
  EXPECT_EQ(delays[0], 5'000);
  EXPECT_EQ(delays[99], 5'000);
  EXPECT_EQ(delays[100], 100'000);
  EXPECT_EQ(delays[101], 200'000);
  EXPECT_EQ(delays[149], 5'000'000);
  EXPECT_EQ(Starts().back(), 5'000'000) << "the last retry waits for its token";
}

TEST(OverallBucketTest, BurstThenOneTokenPerIntervalAndRefillsWhileIdle) {
  RateLimitPolicy p;
  p.bucket_interval = 100 * kMillisecond;
  p.bucket_burst = 3;
  OverallBucket b(p);
  EXPECT_EQ(b.Reserve(0), 0);
  EXPECT_EQ(b.Reserve(0), 0);
  EXPECT_EQ(b.Reserve(0), 0);
  EXPECT_EQ(b.Reserve(0), 100 * kMillisecond);
  EXPECT_EQ(b.Reserve(0), 200 * kMillisecond);
  // Booked to 500 ms: by 1 s the bucket is full again, and holds no more
  // than its burst.
  EXPECT_EQ(b.Reserve(kSecond), 0);
  EXPECT_EQ(b.Reserve(kSecond), 0);
  EXPECT_EQ(b.Reserve(kSecond), 0);
  EXPECT_EQ(b.Reserve(kSecond), 100 * kMillisecond);
  EXPECT_EQ(OverallBucket(RateLimitPolicy::ClusterApi()).Reserve(0), 0) << "no bucket";
}

TEST_F(WorkQueueTest, BackoffResetsAfterSuccess) {
  WorkQueue& q = Make(Opts(1, RateLimitPolicy::ControllerRuntimeDefault(), 0));
  behaviour_ = [this](const Request&, Result* res) {
    if (calls_ == 3) res->requeue_after = kSecond;
    return (calls_ == 3 || calls_ == 5) ? Status::Ok() : Status::Conflict("stale");
  };
  q.Add(Key("a"));
  RunUntil(kMinute);
  // fail 5 ms, fail 10 ms, RequeueAfter 1 s (forgets), fail 5 ms again, ok.
  EXPECT_EQ(Starts(), (std::vector<Time>{0, 5'000, 15'000, 1'015'000, 1'020'000}));
  EXPECT_EQ(Delays(RequeueReason::kBackoff), (std::vector<Duration>{5'000, 10'000, 5'000}));
  EXPECT_EQ(q.failures(Key("a")), 0);
  EXPECT_EQ(q.errors(), 3u);
}

TEST_F(WorkQueueTest, RequeueTrueIsRateLimitedAndCountsFailures) {
  WorkQueue& q = Make(Opts(1, RateLimitPolicy::ControllerRuntimeDefault(), 0));
  behaviour_ = [this](const Request&, Result* res) {
    res->requeue = calls_ <= 3;
    return Status::Ok();
  };
  q.Add(Key("a"));
  RunUntil(kMinute);
  EXPECT_EQ(Starts(), (std::vector<Time>{0, 5'000, 15'000, 35'000}));
  EXPECT_EQ(Delays(RequeueReason::kRequeue), (std::vector<Duration>{5'000, 10'000, 20'000}));
  EXPECT_EQ(q.failures(Key("a")), 0);
  EXPECT_EQ(q.errors(), 0u);
}

// Result::hold_for: a pass blocked inside itself keeps its worker. One
// worker, key a held twice (30 s, then 45 s), then done: b waits for it.
TEST_F(WorkQueueTest, HeldPassKeepsItsWorkerUntilItEnds) {
  WorkQueue& q = Make(Opts(1, RateLimitPolicy::ControllerRuntimeDefault(), kSecond));
  std::vector<Time> calls_at;
  behaviour_ = [&](const Request& r, Result* res) {
    calls_at.push_back(loop_.Now());
    if (r.key.name == "a" && calls_at.size() == 1) res->hold_for = 30 * kSecond;
    if (r.key.name == "a" && calls_at.size() == 2) res->hold_for = 45 * kSecond;
    return Status::Ok();
  };
  q.Add(Key("a"));
  At(kSecond, [&q] { q.Add(Key("b")); });
  At(10 * kSecond, [&q] { q.Add(Key("a")); });  // dirty while held
  RunUntil(kMinute * 5);
  // a: called at 0, 30 s, 75 s; its busy second after the last call; then
  // b (queued at 1 s) and a again (dirty), one at a time.
  EXPECT_EQ(calls_at,
            (std::vector<Time>{0, 30 * kSecond, 75 * kSecond, 76 * kSecond, 77 * kSecond}));
  ASSERT_GE(records_.size(), 1u);
  EXPECT_EQ(records_[0].start, 0);
  EXPECT_EQ(records_[0].end, 76 * kSecond);
  EXPECT_EQ(q.reconciles(), 3u) << "a held pass counts once";
}

// The last call's answer is the pass's: an error after a hold is backed off.
TEST_F(WorkQueueTest, HeldPassEndsWithItsLastAnswer) {
  WorkQueue& q = Make(Opts(1, RateLimitPolicy::ControllerRuntimeDefault(), 0));
  behaviour_ = [this](const Request&, Result* res) {
    if (calls_ == 1) {
      res->hold_for = 30 * kSecond;
      return Status::Ok();
    }
    if (calls_ == 2) return Status::Timeout("exceeded max wait time");
    return Status::Ok();
  };
  q.Add(Key("a"));
  RunUntil(kMinute);
  EXPECT_EQ(Starts(), (std::vector<Time>{0, 30 * kSecond + 5'000}));
  EXPECT_EQ(Delays(RequeueReason::kBackoff), (std::vector<Duration>{5'000}));
  EXPECT_EQ(q.errors(), 1u);
}

TEST_F(WorkQueueTest, RequeueAfterRaisedToOneSecondUnderClusterApi) {
  WorkQueue& q = Make(Opts(1, RateLimitPolicy::ClusterApi(), 0));
  behaviour_ = [this](const Request&, Result* res) {
    if (calls_ == 1) res->requeue_after = 100'000;
    return Status::Ok();
  };
  q.Add(Key("a"));
  RunUntil(kMinute);
  EXPECT_EQ(Starts(), (std::vector<Time>{0, 1'000'000}));
  EXPECT_EQ(Delays(RequeueReason::kRequeueAfter), (std::vector<Duration>{1'000'000}));
}

TEST_F(WorkQueueTest, RequeueAfterVerbatimUnderControllerRuntime) {
  WorkQueue& q = Make(Opts(1, RateLimitPolicy::ControllerRuntimeDefault(), 0));
  behaviour_ = [this](const Request&, Result* res) {
    if (calls_ == 1) res->requeue_after = 100'000;
    return Status::Ok();
  };
  q.Add(Key("a"));
  RunUntil(kMinute);
  EXPECT_EQ(Starts(), (std::vector<Time>{0, 100'000}));
}

TEST_F(WorkQueueTest, ClusterApiStartsAtMostOncePerSecond) {
  WorkQueue& q = Make(Opts(1, RateLimitPolicy::ClusterApi(), 200'000));
  q.Add(Key("a"));
  At(500'000, [&q] { q.Add(Key("a")); });    // idle, but 0.5 s after the start
  At(1'100'000, [&q] { q.Add(Key("a")); });  // during [1.0, 1.2]: dirty, due at 1.2
  RunUntil(kMinute);
  EXPECT_EQ(Starts(), (std::vector<Time>{0, 1'000'000, 2'000'000}));
  ASSERT_EQ(Delays(RequeueReason::kRateLimit), (std::vector<Duration>{500'000, 800'000}));
  std::vector<Time> when;
  for (const auto& r : requeues_) {
    if (r.why == RequeueReason::kRateLimit) when.push_back(r.at);
  }
  EXPECT_EQ(when, (std::vector<Time>{500'000, 1'200'000}));
}

TEST_F(WorkQueueTest, DelayedAddsEarliestWins) {
  WorkQueue& q = Make(Opts(2, RateLimitPolicy::ControllerRuntimeDefault(), 0));
  q.AddAfter(Key("a"), 10 * kSecond);
  q.AddAfter(Key("a"), 3 * kSecond);  // earlier: wins
  q.AddAfter(Key("b"), 3 * kSecond);
  q.AddAfter(Key("b"), 10 * kSecond);  // later: ignored
  q.Add(Key("c"));
  q.AddAfter(Key("c"), 5 * kSecond);  // later than "now": ignored
  EXPECT_EQ(q.pending(), 3u);
  RunUntil(kMinute);
  ASSERT_EQ(records_.size(), 3u);
  EXPECT_EQ(records_[0].request, Key("c"));
  EXPECT_EQ(records_[0].start, 0);
  EXPECT_EQ(records_[1].request, Key("a"));
  EXPECT_EQ(records_[1].start, 3'000'000);
  EXPECT_EQ(records_[2].request, Key("b"));
  EXPECT_EQ(records_[2].start, 3'000'000);
}

TEST_F(WorkQueueTest, ResyncAddsEveryKeyEverySyncPeriod) {
  WorkQueueOptions o = Opts(1, RateLimitPolicy::ClusterApi(), 0);
  o.sync_period = 10 * kMinute;
  WorkQueue& q = Make(o);
  keys_ = {Key("b"), Key("a")};
  q.Start();
  RunUntil(25 * kMinute);
  ASSERT_EQ(records_.size(), 4u);
  const std::vector<std::pair<std::string, Time>> want = {
      {"a", 600'000'000}, {"b", 600'000'000}, {"a", 1'200'000'000}, {"b", 1'200'000'000}};
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(records_[i].request.key.name, want[i].first);
    EXPECT_EQ(records_[i].start, want[i].second);
  }
  EXPECT_EQ(Delays(RequeueReason::kResync).size(), 4u);
}

// Each reconcile says what put its key in the queue: the explanation of a
// run tells a wait for the resync from one for a watch event or a requeue.
TEST_F(WorkQueueTest, RecordsSayWhatWokeEachReconcile) {
  WorkQueueOptions o = Opts(1, RateLimitPolicy::ClusterApi(), 0);
  o.sync_period = 10 * kMinute;
  o.priority_queue = false;  // the providers' delaying queue
  WorkQueue& q = Make(o);
  keys_ = {Key("a")};
  behaviour_ = [&](const Request&, Result* res) {
    if (loop_.Now() == 0) res->requeue_after = 15 * kSecond;
    return Status::Ok();
  };
  q.Start();
  At(0, [&] { q.Add(Key("a")); });
  At(kMinute, [&] { q.Add(Key("a")); });
  RunUntil(11 * kMinute);
  ASSERT_EQ(records_.size(), 4u);
  EXPECT_EQ(records_[0].woken_by, RequeueReason::kEvent);
  EXPECT_EQ(records_[1].woken_by, RequeueReason::kRequeueAfter);
  EXPECT_EQ(records_[1].start, 15 * kSecond);
  EXPECT_EQ(records_[2].woken_by, RequeueReason::kEvent);
  EXPECT_EQ(records_[3].woken_by, RequeueReason::kResync);
  EXPECT_EQ(records_[3].start, 10 * kMinute);
  EXPECT_EQ(q.sync_period(), 10 * kMinute);
}

TEST_F(WorkQueueTest, ReconcileDurationKeepsWorkerBusy) {
  WorkQueue& q = Make(Opts(1, RateLimitPolicy::ControllerRuntimeDefault(), 2 * kSecond));
  std::vector<Time> called;
  behaviour_ = [&](const Request&, Result*) {
    called.push_back(loop_.Now());
    return Status::Ok();
  };
  q.Add(Key("a"));
  q.Add(Key("b"));
  RunUntil(kMinute);
  ASSERT_EQ(records_.size(), 2u);
  EXPECT_EQ(records_[0].request, Key("a"));
  EXPECT_EQ(records_[0].start, 0);
  EXPECT_EQ(records_[0].end, 2'000'000);
  EXPECT_EQ(records_[1].request, Key("b"));
  EXPECT_EQ(records_[1].start, 2'000'000);
  EXPECT_EQ(records_[1].end, 4'000'000);
  EXPECT_EQ(called, (std::vector<Time>{0, 2'000'000}));  // the cache is read at the start
}

TEST_F(WorkQueueTest, StopCancelsTimersAndReconciles) {
  WorkQueueOptions o = Opts(1, RateLimitPolicy::ControllerRuntimeDefault(), kSecond);
  o.sync_period = kMinute;
  WorkQueue& q = Make(o);
  keys_ = {Key("a")};
  q.Start();
  q.Add(Key("a"));
  q.AddAfter(Key("b"), 5 * kSecond);
  RunUntil(500'000);
  q.Stop();
  q.Add(Key("c"));
  RunUntil(kHour);
  EXPECT_EQ(calls_, 1);
  EXPECT_TRUE(records_.empty());
  EXPECT_EQ(loop_.Pending(), 0u);
}

TEST_F(WorkQueueTest, EventDuringBackoffWinsButWaitsForTheOneSecondRule) {
  WorkQueue& q = Make(Opts(1, RateLimitPolicy::ClusterApi(), 0));
  behaviour_ = [this](const Request&, Result*) {
    return calls_ == 1 ? Status::Unavailable("down") : Status::Ok();
  };
  q.Add(Key("a"));
  At(300'000, [&q] { q.Add(Key("a")); });  // earlier than the 1.005 s backoff
  RunUntil(kMinute);
  EXPECT_EQ(Starts(), (std::vector<Time>{0, 1'000'000}));
  EXPECT_EQ(Delays(RequeueReason::kRateLimit), (std::vector<Duration>{700'000}));
}

TEST_F(WorkQueueTest, AddsMadeByTheReconcilerItself) {
  WorkQueue& q = Make(Opts(2, RateLimitPolicy::ControllerRuntimeDefault(), kSecond));
  behaviour_ = [&](const Request& r, Result*) {
    if (r == Key("a") && calls_ == 1) {
      q.Add(Key("a"));  // dirty: once more after this one ends
      q.Add(Key("b"));  // a free worker takes it at once
    }
    return Status::Ok();
  };
  q.Add(Key("a"));
  RunUntil(kMinute);
  ASSERT_EQ(records_.size(), 3u);
  EXPECT_EQ(Starts("a"), (std::vector<Time>{0, 1'000'000}));
  EXPECT_EQ(Starts("b"), (std::vector<Time>{0}));
}

// The whole record sequence of a small storm, for one seed.
std::vector<std::tuple<std::string, Time, Time, bool, Duration>> Storm(uint64_t seed) {
  EventLoop loop;
  WorkQueueOptions o = Opts(2, RateLimitPolicy::ClusterApi(), 0);
  o.reconcile_duration = DistSpec::Exponential(300'000);
  int calls = 0;
  WorkQueue q(
      &loop, StreamFor(seed, "test/workqueue"), o,
      [&calls](const Request&, Result* res) {
        ++calls;
        if (calls % 3 == 0) return Status::Conflict("stale");
        res->requeue_after = (calls % 5 + 1) * 700'000;
        return Status::Ok();
      },
      [] { return std::vector<Request>{}; });
  std::vector<std::tuple<std::string, Time, Time, bool, Duration>> out;
  q.OnReconcile([&out](const ReconcileRecord& r) {
    out.emplace_back(r.request.key.name, r.start, r.end, r.status.ok(), r.result.requeue_after);
  });
  for (int i = 0; i < 5; ++i) q.Add(Key("k" + std::to_string(i)));
  loop.Run(30 * kSecond, kBudget);
  q.Stop();
  return out;
}

TEST(WorkQueueDeterminismTest, SameSeedSameRecords) {
  const auto first = Storm(42);
  EXPECT_GT(first.size(), 20u);
  EXPECT_EQ(first, Storm(42));
  EXPECT_NE(first, Storm(43));
}

// ---- load (depth and busy workers, for trace.json's queue counters) ----

struct LoadNow {
  int depth = 0, busy = 0;
  bool operator==(const LoadNow&) const = default;
};

// The load at t: every step taken by then, in any order.
LoadNow QueueLoadAt(const std::vector<std::tuple<Time, int, int>>& steps, Time t) {
  LoadNow l;
  for (const auto& [at, depth, busy] : steps) {
    if (at <= t) l.depth += depth, l.busy += busy;
  }
  return l;
}

// One worker and three keys added at once: workqueue hands one to the worker
// and the other two wait (controller-runtime's depth counts keys queued and
// not yet handed out); a key added with a delay waits only once it is due.
TEST_F(WorkQueueTest, LoadCountsKeysDueAndWorkersBusy) {
  WorkQueue& q = Make(Opts(1, RateLimitPolicy::ControllerRuntimeDefault(), 10 * kSecond));
  std::vector<std::tuple<Time, int, int>> steps;
  q.OnLoad([&](Time at, int depth, int busy) { steps.emplace_back(at, depth, busy); });
  At(0, [&] {
    q.Add(Key("a"));
    q.Add(Key("b"));
    q.Add(Key("c"));
    q.AddAfter(Key("d"), 5 * kSecond);
  });
  RunUntil(kMinute);
  EXPECT_EQ(QueueLoadAt(steps, 0), (LoadNow{2, 1}));
  EXPECT_EQ(QueueLoadAt(steps, 4 * kSecond), (LoadNow{2, 1}));
  EXPECT_EQ(QueueLoadAt(steps, 5 * kSecond), (LoadNow{3, 1}));
  EXPECT_EQ(QueueLoadAt(steps, 10 * kSecond), (LoadNow{2, 1}));
  EXPECT_EQ(QueueLoadAt(steps, 20 * kSecond), (LoadNow{1, 1}));
  EXPECT_EQ(QueueLoadAt(steps, 30 * kSecond), (LoadNow{0, 1}));
  EXPECT_EQ(QueueLoadAt(steps, 40 * kSecond), (LoadNow{0, 0}));
  EXPECT_EQ(Starts(), (std::vector<Time>{0, 10 * kSecond, 20 * kSecond, 30 * kSecond}));
}

// A delayed key brought forward before it was due counts from the earlier
// time only, never twice.
TEST_F(WorkQueueTest, LoadOfAKeyBroughtForwardCountsOnce) {
  WorkQueue& q = Make(Opts(1, RateLimitPolicy::ControllerRuntimeDefault(), 10 * kSecond));
  std::vector<std::tuple<Time, int, int>> steps;
  q.OnLoad([&](Time at, int depth, int busy) { steps.emplace_back(at, depth, busy); });
  At(0, [&] {
    q.Add(Key("a"));
    q.AddAfter(Key("b"), 30 * kSecond);
  });
  At(2 * kSecond, [&] { q.Add(Key("b")); });
  RunUntil(kMinute);
  EXPECT_EQ(QueueLoadAt(steps, kSecond), (LoadNow{0, 1}));
  EXPECT_EQ(QueueLoadAt(steps, 2 * kSecond), (LoadNow{1, 1}));
  EXPECT_EQ(QueueLoadAt(steps, 10 * kSecond), (LoadNow{0, 1}));
  EXPECT_EQ(QueueLoadAt(steps, 30 * kSecond), (LoadNow{0, 0}));
}

}  // namespace
}  // namespace mpsim
