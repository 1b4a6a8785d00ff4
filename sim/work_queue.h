// A controller's work queue on the simulated clock: controller-runtime's priority
// queue and worker pool, with Cluster API's reconcile rate limiting on top.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <set>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "api/meta.h"
#include "api/reconciler.h"
#include "api/status.h"
#include "api/time.h"
#include "sim/distribution.h"
#include "sim/event_loop.h"
#include "sim/random.h"
#include "sim/rate_limit.h"

namespace mpsim {

struct WorkQueueOptions {
  int workers = 1;  // maxConcurrentReconciles; REQUIRES: >= 1
  RateLimitPolicy policy;
  Duration sync_period = 10 * kMinute;  // resync: every known key re-added (<= 0: never)
  DistSpec reconcile_duration;          // simulated time a worker is busy per reconcile
  // Added to that busy time for each object the reconcile listed, as
  // objects_listed() counts them (controller.reconcileCost; 0: nothing).
  Duration per_object_listed = 0;
  std::function<uint64_t()> objects_listed;
  // controller-runtime's priority queue (Cluster API enables it: docs/reference/capi-core.md
  // §1.2) keeps one entry per key, so an immediate add cancels a later
  // delayed one. The classic client-go delaying queue (what the providers'
  // managers use) keeps a delayed add waiting apart: it fires even if the key
  // was queued and reconciled meanwhile.
  bool priority_queue = true;
};

enum class RequeueReason { kEvent, kRequeueAfter, kRequeue, kBackoff, kRateLimit, kResync };

// What happened in one reconcile, for the recorder.
struct ReconcileRecord {
  Request request;
  Time start;
  Time end;
  Status status;
  Result result;
  // Why the key was in the queue: the reason of the add that set the ready
  // time it was taken at (a rate-limit postponement keeps the earlier reason).
  RequeueReason woken_by = RequeueReason::kEvent;
};

class WorkQueue {
 public:
  using ReconcileFn = std::function<Status(const Request&, Result*)>;
  using KeysFn = std::function<std::vector<Request>()>;  // every object the controller knows
  using ReconcileObserver = std::function<void(const ReconcileRecord&)>;
  using RequeueObserver = std::function<void(const Request&, RequeueReason, Duration)>;
  // A step of the queue's load: `depth` (keys due and waiting for a worker,
  // a key re-added while a worker holds it included) and `busy` (reconciles
  // in progress) each change by depth_step and busy_step at `at`, which is
  // later than now for a key added with a delay: it counts once it is due.
  using LoadObserver = std::function<void(Time at, int depth_step, int busy_step)>;

  // Workers take keys from construction on. REQUIRES: loop outlives the queue.
  WorkQueue(EventLoop* loop, Rng rng, WorkQueueOptions opts, ReconcileFn reconcile, KeysFn keys);
  // Cancels every event the queue scheduled.
  ~WorkQueue();
  WorkQueue(const WorkQueue&) = delete;
  WorkQueue& operator=(const WorkQueue&) = delete;

  // An event: the key is due now (subject to the rate limit); a worker takes
  // it in an event of its own at this same instant.
  void Add(const Request& r);
  // The key becomes ready after d, unless it is already due earlier.
  void AddAfter(const Request& r, Duration d);
  // Arms the resync timer (first resync one sync_period from now).
  void Start();
  // Cancels every pending timer and reconcile end; nothing runs afterwards.
  void Stop();
  // f sees every finished reconcile, at its end time.
  void OnReconcile(ReconcileObserver f);
  // f sees every enqueue request (before de-duplication) with its delay.
  void OnRequeue(RequeueObserver f);
  // f sees every step of the queue's load, in the order they are taken
  // (steps that take effect later come before others taken after them).
  void OnLoad(LoadObserver f);

  // Reconcile passes started so far (counted when the reconciler runs; a
  // pass held by Result::hold_for counts once however often it is resumed).
  uint64_t reconciles() const { return reconciles_; }
  // Of those, the passes that ended with an error.
  uint64_t errors() const { return errors_; }
  // Keys waiting in the queue, due or delayed (a dirty key counts once).
  size_t pending() const { return entries_.size(); }
  // Reconciles in progress.
  size_t in_flight() const { return in_flight_.size(); }
  // Consecutive failures recorded for r (the n of the next backoff).
  int failures(const Request& r) const;
  // The resync period (<= 0: no resync).
  Duration sync_period() const { return opts_.sync_period; }

 private:
  struct Entry {
    Time ready_at;
    uint64_t seq;       // order in which keys got this ready time; ties break on it
    RequeueReason why;  // the add that set ready_at
  };
  using OrderKey = std::tuple<Time, uint64_t, Request>;
  struct InFlight {
    Time start;
    Status status;
    Result result;
    EventId end_event;  // the pass's end, or its next resumption while held
    RequeueReason woken_by;
    Duration busy = 0;  // the worker's busy time, spent after the last call
  };
  struct KeyState {
    int failures = 0;
    bool started = false;
    Time last_start = 0;
  };

  void Notify(const Request& r, RequeueReason why, Duration d);
  void LoadStep(Time at, int depth_step, int busy_step);
  // Queues r at now + d unless it is already due earlier.
  void Enqueue(const Request& r, Duration d, RequeueReason why);
  // Moves (or inserts) r's entry to `at`, later or earlier, for the reason `why`.
  void SetReadyAt(const Request& r, Time at, RequeueReason why);
  void AddWaiting(const Request& r, Time at, RequeueReason why);
  // Hands due keys to free workers; re-arms the wake-up timer.
  void Dispatch();
  // The due key to start next, or nullptr.
  const Request* NextReady() const;
  // True when r started less than min_interval ago; then it is moved.
  bool PostponeForRateLimit(const Request& r);
  // Takes r off the queue and calls the reconciler.
  void Begin(const Request& r);
  // Schedules the end of r's pass, or its resumption if the reconciler
  // answered Result::hold_for.
  void AfterCall(const Request& r, Status status, const Result& result);
  // Calls the reconciler again for a held pass; its worker stays taken.
  void Resume(const Request& r);
  // The worker holding r becomes free; the outcome is applied.
  void Finish(const Request& r);
  void ApplyOutcome(const Request& r, const InFlight& f);
  void RequeueRateLimited(const Request& r, KeyState* ks, RequeueReason why);
  void ArmWake();
  void CancelWake();
  void ArmResync();
  void Resync();
  void ForgetIdleKeys();

  EventLoop* loop_;
  Rng rng_;  // draws reconcile durations only
  WorkQueueOptions opts_;
  OverallBucket bucket_;  // opts_.policy's, shared by every key
  ReconcileFn reconcile_;
  KeysFn keys_;
  std::vector<ReconcileObserver> on_reconcile_;
  std::vector<RequeueObserver> on_requeue_;
  std::vector<LoadObserver> on_load_;

  struct Waiting {
    Time at;
    EventId event;
    RequeueReason why;
  };
  // Looked up by key, never walked in key order (only order_ gives order):
  // hashed, as a controller with one key per Machine holds thousands, and a
  // tree's lookup compared their names a dozen times over.
  struct RequestHash {
    size_t operator()(const Request& r) const { return ObjectKeyHash{}(r.key); }
  };
  template <class V>
  using ByKey = std::unordered_map<Request, V, RequestHash>;
  ByKey<Waiting> waiting_;     // classic queue: delayed adds not yet due
  ByKey<Entry> entries_;       // keys in the queue, at most one entry each
  std::set<OrderKey> order_;   // the same entries by (ready_at, seq, key)
  ByKey<InFlight> in_flight_;  // keys a worker holds ("locked" upstream)
  ByKey<KeyState> key_state_;  // backoff count and last start per key
  uint64_t next_seq_ = 0;
  EventId wake_event_ = 0;  // fires when the earliest delayed key becomes due
  Time wake_at_ = 0;
  EventId resync_event_ = 0;
  bool dispatching_ = false;  // Dispatch is running; it re-arms the timer itself
  bool stopped_ = false;
  uint64_t reconciles_ = 0;
  uint64_t errors_ = 0;
};

}  // namespace mpsim
