#include "sim/work_queue.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <utility>

namespace mpsim {

namespace {

// Past this the backoff is at its cap whatever the policy; counting further
// would only risk overflow.
constexpr int kMaxCountedFailures = 64;

// An invariant of the queue: failing it is a simulator bug, never bad input.
void Check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "mpsim bug: work queue invariant violated: %s\n", what);
  std::abort();
}

}  // namespace

WorkQueue::WorkQueue(EventLoop* loop, Rng rng, WorkQueueOptions opts, ReconcileFn reconcile,
                     KeysFn keys)
    : loop_(loop),
      rng_(rng),
      opts_(std::move(opts)),
      bucket_(opts_.policy),
      reconcile_(std::move(reconcile)),
      keys_(std::move(keys)) {
  Check(loop_ != nullptr, "no event loop");
  Check(opts_.workers >= 1, "workers < 1");
  Check(static_cast<bool>(reconcile_), "no reconcile function");
}

WorkQueue::~WorkQueue() { Stop(); }

// Adds never call the reconciler directly: a worker takes the key in an
// event of its own at the same instant, so that every Add made in one instant
// (a burst of watch events) is coalesced and no caller is re-entered.
void WorkQueue::Add(const Request& r) {
  Enqueue(r, 0, RequeueReason::kEvent);
  ArmWake();
}

void WorkQueue::AddAfter(const Request& r, Duration d) {
  Enqueue(r, d, RequeueReason::kEvent);
  ArmWake();
}

void WorkQueue::Start() {
  if (stopped_ || resync_event_ != 0) return;
  ArmResync();
}

void WorkQueue::Stop() {
  stopped_ = true;
  CancelWake();
  if (resync_event_ != 0) loop_->Cancel(resync_event_);
  resync_event_ = 0;
  for (auto& [r, f] : in_flight_) {
    if (f.end_event != 0) loop_->Cancel(f.end_event);
    f.end_event = 0;
  }
}

void WorkQueue::OnReconcile(ReconcileObserver f) { on_reconcile_.push_back(std::move(f)); }

void WorkQueue::OnRequeue(RequeueObserver f) { on_requeue_.push_back(std::move(f)); }

void WorkQueue::OnLoad(LoadObserver f) { on_load_.push_back(std::move(f)); }

int WorkQueue::failures(const Request& r) const {
  auto it = key_state_.find(r);
  return it == key_state_.end() ? 0 : it->second.failures;
}

void WorkQueue::Notify(const Request& r, RequeueReason why, Duration d) {
  for (const RequeueObserver& f : on_requeue_) f(r, why, d);
}

void WorkQueue::LoadStep(Time at, int depth_step, int busy_step) {
  for (const LoadObserver& f : on_load_) f(at, depth_step, busy_step);
}

void WorkQueue::Enqueue(const Request& r, Duration d, RequeueReason why) {
  if (stopped_) return;
  d = std::max<Duration>(d, 0);
  Notify(r, why, d);
  const Time at = loop_->Now() + d;
  if (!opts_.priority_queue && d > 0) return AddWaiting(r, at, why);
  auto it = entries_.find(r);
  // priorityqueue.go AddWithOpts: a key already queued keeps the earlier of
  // its ReadyAt and the new one; a key a worker holds is queued again
  // (upstream "locked") and handed out only after Done.
  if (it != entries_.end() && it->second.ready_at <= at) return;
  SetReadyAt(r, at, why);
}

// delaying_queue.go: a delayed add waits in its own heap (the earliest per
// key) and is added to the queue when due, whatever happened to the key since.
void WorkQueue::AddWaiting(const Request& r, Time at, RequeueReason why) {
  auto it = waiting_.find(r);
  if (it != waiting_.end()) {
    if (it->second.at <= at) return;
    loop_->Cancel(it->second.event);
  }
  const EventId ev = loop_->At(at, [this, r, why] {
    waiting_.erase(r);
    if (stopped_) return;
    auto e = entries_.find(r);
    if (e == entries_.end() || e->second.ready_at > loop_->Now()) SetReadyAt(r, loop_->Now(), why);
    ArmWake();
  });
  waiting_[r] = {at, ev, why};
}

void WorkQueue::SetReadyAt(const Request& r, Time at, RequeueReason why) {
  const Time now = loop_->Now();
  auto it = entries_.find(r);
  if (it != entries_.end()) {
    order_.erase(OrderKey{it->second.ready_at, it->second.seq, r});
    // Not due yet: this takes back the step its ready time would have taken.
    LoadStep(std::max(it->second.ready_at, now), -1, 0);
  }
  const Entry e{at, next_seq_++, why};
  entries_[r] = e;
  order_.insert(OrderKey{at, e.seq, r});
  LoadStep(std::max(at, now), +1, 0);
}

void WorkQueue::Dispatch() {
  if (stopped_) return;
  Check(!dispatching_, "Dispatch re-entered");
  dispatching_ = true;
  // Ends: each pass either starts a reconcile (at most `workers` of them, as
  // only a later event frees a worker) or moves one due key into the future.
  while (!stopped_ && static_cast<int>(in_flight_.size()) < opts_.workers) {
    const Request* next = NextReady();
    if (next == nullptr) break;
    const Request r = *next;
    if (!PostponeForRateLimit(r)) Begin(r);
  }
  dispatching_ = false;
  Check(entries_.size() == order_.size(), "entry index out of step");
  Check(static_cast<int>(in_flight_.size()) <= opts_.workers, "more reconciles than workers");
  ArmWake();
}

const Request* WorkQueue::NextReady() const {
  const Time now = loop_->Now();
  // Earliest ready time first, then the order keys got it. At most
  // in_flight_.size() due keys are skipped: a key is never on two workers.
  for (const auto& [at, seq, r] : order_) {
    if (at > now) return nullptr;
    if (!in_flight_.contains(r)) return &r;
  }
  return nullptr;
}

bool WorkQueue::PostponeForRateLimit(const Request& r) {
  if (opts_.policy.min_interval <= 0) return false;
  auto it = key_state_.find(r);
  if (it == key_state_.end() || !it->second.started) return false;
  const Time now = loop_->Now();
  const Time allowed = it->second.last_start + opts_.policy.min_interval;
  if (allowed <= now) return false;
  // util/controller/controller.go: a reconcile due before ReconcileAfter
  // (last start + 1 s) returns RequeueAfter = the remainder without calling
  // the reconciler; its no-op pass through a worker takes no simulated time.
  Notify(r, RequeueReason::kRateLimit, allowed - now);
  SetReadyAt(r, allowed, entries_.at(r).why);
  return true;
}

void WorkQueue::Begin(const Request& r) {
  auto it = entries_.find(r);
  Check(it != entries_.end(), "began a key that is not queued");
  order_.erase(OrderKey{it->second.ready_at, it->second.seq, r});
  const RequeueReason woken_by = it->second.why;
  entries_.erase(it);
  const Time now = loop_->Now();
  LoadStep(now, -1, +1);
  KeyState& ks = key_state_[r];
  ks.started = true;
  ks.last_start = now;
  // Drawn before the call so the stream does not depend on what it does.
  Duration busy = std::max<Duration>(Sample(opts_.reconcile_duration, rng_), 0);
  const bool costed = opts_.per_object_listed > 0 && opts_.objects_listed;
  const uint64_t listed_before = costed ? opts_.objects_listed() : 0;
  // Held before the call: an Add made by the reconcile itself marks it dirty.
  in_flight_[r] = InFlight{now, Status::Ok(), Result{}, 0, woken_by};
  Result result;
  Status status = reconcile_(r, &result);
  if (costed) {
    const uint64_t listed = opts_.objects_listed() - listed_before;
    busy += static_cast<Duration>(listed) * opts_.per_object_listed;
  }
  ++reconciles_;
  if (stopped_) return;
  in_flight_.at(r).busy = busy;
  AfterCall(r, std::move(status), result);
}

// A held pass (Result::hold_for) keeps its worker: the key stays in flight,
// so events meanwhile only mark it dirty, and the reconciler is called again
// when the hold ends. The busy time is spent once, after the last call.
void WorkQueue::AfterCall(const Request& r, Status status, const Result& result) {
  InFlight& f = in_flight_.at(r);
  if (status.ok() && result.hold_for > 0) {
    f.end_event = loop_->After(result.hold_for, [this, r] { Resume(r); });
    return;
  }
  if (!status.ok()) ++errors_;
  f.status = std::move(status);
  f.result = result;
  f.end_event = loop_->After(f.busy, [this, r] { Finish(r); });
}

void WorkQueue::Resume(const Request& r) {
  Check(in_flight_.contains(r), "resumed a key no worker holds");
  Result result;
  Status status = reconcile_(r, &result);
  if (stopped_) return;
  AfterCall(r, std::move(status), result);
}

void WorkQueue::Finish(const Request& r) {
  auto it = in_flight_.find(r);
  Check(it != in_flight_.end(), "finished a key no worker holds");
  const InFlight f = std::move(it->second);
  in_flight_.erase(it);
  LoadStep(loop_->Now(), 0, -1);
  const ReconcileRecord rec{r, f.start, loop_->Now(), f.status, f.result, f.woken_by};
  for (const ReconcileObserver& obs : on_reconcile_) obs(rec);
  ApplyOutcome(r, f);
  Dispatch();
}

// controller-runtime reconcileHandler: error → AddRateLimited (result
// ignored); RequeueAfter → Forget + AddAfter; Requeue → AddRateLimited;
// otherwise Forget. CAPI's limiter only forgets on RequeueAfter and success.
void WorkQueue::ApplyOutcome(const Request& r, const InFlight& f) {
  KeyState& ks = key_state_[r];
  if (!f.status.ok()) return RequeueRateLimited(r, &ks, RequeueReason::kBackoff);
  if (f.result.requeue_after > 0) {
    ks.failures = 0;
    // CAPI wrapper: RequeueAfter is raised to at least the 1 s interval.
    const Duration d = std::max(f.result.requeue_after, opts_.policy.min_requeue_after);
    Enqueue(r, d, RequeueReason::kRequeueAfter);
  } else if (f.result.requeue) {
    return RequeueRateLimited(r, &ks, RequeueReason::kRequeue);
  } else {
    ks.failures = 0;
  }
  // Without a start-to-start interval a forgotten key needs no state.
  if (opts_.policy.min_interval <= 0) key_state_.erase(r);
}

void WorkQueue::RequeueRateLimited(const Request& r, KeyState* ks, RequeueReason why) {
  // workqueue MaxOfRateLimiter.When: the per-item delay from the current
  // count (then this failure counted) or the overall bucket's, whichever is
  // longer; both are asked, so the bucket spends a token either way.
  const Duration d = std::max(opts_.policy.Backoff(ks->failures), bucket_.Reserve(loop_->Now()));
  ks->failures = std::min(ks->failures + 1, kMaxCountedFailures);
  Enqueue(r, d, why);
}

void WorkQueue::ArmWake() {
  if (stopped_ || dispatching_) return;  // Dispatch re-arms when it ends
  const Time now = loop_->Now();
  Time at = now;
  if (static_cast<int>(in_flight_.size()) >= opts_.workers || NextReady() == nullptr) {
    // Due keys blocked by busy workers need no timer: Finish dispatches them.
    auto it = order_.lower_bound(OrderKey{now + 1, 0, Request{}});
    if (it == order_.end()) return CancelWake();
    at = std::get<0>(*it);
  }
  if (wake_event_ != 0 && wake_at_ == at) return;
  CancelWake();
  wake_at_ = at;
  wake_event_ = loop_->At(at, [this] {
    wake_event_ = 0;
    Dispatch();
  });
}

void WorkQueue::CancelWake() {
  if (wake_event_ != 0) loop_->Cancel(wake_event_);
  wake_event_ = 0;
}

void WorkQueue::ArmResync() {
  if (opts_.sync_period <= 0) return;
  resync_event_ = loop_->After(opts_.sync_period, [this] { Resync(); });
}

// controller-runtime cache SyncPeriod: every known object is re-delivered
// and enqueued. Upstream jitters the period by up to 10 % per informer; the
// simulation uses it exactly, so that resyncs are easy to read in a timeline.
void WorkQueue::Resync() {
  resync_event_ = 0;
  std::vector<Request> keys;
  if (keys_) keys = keys_();
  // Sorted so that the enqueue order never depends on the caller's container.
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  for (const Request& r : keys) Enqueue(r, 0, RequeueReason::kResync);
  ForgetIdleKeys();
  ArmResync();
  Dispatch();
}

void WorkQueue::ForgetIdleKeys() {
  // Bounds key_state_ by the keys active within one sync period.
  const Time now = loop_->Now();
  for (auto it = key_state_.begin(); it != key_state_.end();) {
    const bool idle =
        it->second.failures == 0 && it->second.last_start + opts_.policy.min_interval <= now;
    it = idle ? key_state_.erase(it) : std::next(it);
  }
}

}  // namespace mpsim
