#include "app/sweep/sweep_runner.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "app/world.h"

namespace mpsim {
namespace {

// State shared by the workers; everything but the counters under `mu`.
struct Shared {
  const std::vector<SweepJob>* jobs;
  const SweepSink* sink;
  const std::atomic<bool>* stop;
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex mu;
  std::condition_variable cv;
  size_t done = 0;     // GUARDED_BY(mu)
  size_t running = 0;  // workers still running; GUARDED_BY(mu)
  std::string error;   // the first failure; GUARDED_BY(mu)
};

// Runs one job; false with *error when the run could not be built or a
// budget of spec.limits stopped it.
bool RunOne(const SweepJob& job, proto::RunSummary* summary, std::string* error) {
  RunOutput out;
  if (!RunScenario(*job.scenario, job.seed, &out, error)) return false;
  *summary = std::move(out.summary);
  return true;
}

void Worker(Shared* s) {
  for (size_t i = s->next++; i < s->jobs->size() && !*s->stop && !s->failed; i = s->next++) {
    const SweepJob& job = (*s->jobs)[i];
    proto::RunSummary summary;
    std::string error;
    bool ok = RunOne(job, &summary, &error);
    if (!ok)
      error =
          "run " + std::to_string(job.run) + " (seed " + std::to_string(job.seed) + "): " + error;
    std::lock_guard<std::mutex> lock(s->mu);
    ok = ok && (*s->sink)(job, summary, &error);
    if (!ok && !s->failed.exchange(true)) s->error = error;
    ++s->done;
  }
  std::lock_guard<std::mutex> lock(s->mu);
  --s->running;
  s->cv.notify_all();
}

}  // namespace

bool RunSweepJobs(const std::vector<SweepJob>& jobs, size_t threads, const SweepSink& sink,
                  const SweepTick& tick, const std::atomic<bool>* stop, std::string* error) {
  Shared s;
  s.jobs = &jobs;
  s.sink = &sink;
  s.stop = stop;
  threads = std::clamp<size_t>(threads, 1, std::max<size_t>(jobs.size(), 1));
  s.running = threads;
  std::vector<std::thread> pool;
  for (size_t t = 0; t < threads; ++t) pool.emplace_back(Worker, &s);
  {
    std::unique_lock<std::mutex> lock(s.mu);
    while (s.running > 0) {
      s.cv.wait_for(lock, std::chrono::milliseconds(200));
      const size_t done = s.done;
      lock.unlock();
      tick(done);
      lock.lock();
    }
  }
  for (std::thread& t : pool) t.join();
  if (s.failed) *error = s.error;
  return !s.failed;
}

}  // namespace mpsim
