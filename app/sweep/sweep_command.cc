#include "app/sweep/sweep_command.h"

#include <unistd.h>

#include <atomic>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "app/commands.h"
#include "app/sweep/sweep_interrupt.h"
#include "app/sweep/sweep_metrics.h"
#include "app/sweep/sweep_plan.h"
#include "app/sweep/sweep_progress.h"
#include "app/sweep/sweep_report.h"
#include "app/sweep/sweep_runner.h"
#include "app/sweep/sweep_store.h"
#include "scenario/loader.h"

namespace mpsim {
namespace {

using Json = nlohmann::ordered_json;

int Fail(const std::string& message) {
  std::cerr << "error: " << message << "\n";
  return kExitBadInput;
}

bool ParseParams(const std::vector<std::string>& sets, std::vector<SweepParam>* params,
                 std::string* error) {
  std::set<std::string> paths;
  for (const std::string& s : sets) {
    SweepParam p;
    if (!ParseSweepParam(s, &p, error)) return false;
    if (!paths.insert(p.path).second) {
      *error = "--set " + s + ": " + p.path + " is already swept by an earlier --set";
      return false;
    }
    params->push_back(std::move(p));
  }
  return SweepPlan::Check(*params, error);
}

// The scenario of each point that `runs` touch, loaded with the point's
// overrides: a bad value fails here, before any run.
bool LoadPoints(const std::string& path, const std::string& overlay, const SweepPlan& plan,
                const std::vector<size_t>& runs, std::vector<proto::Scenario>* points) {
  points->resize(plan.points());
  std::vector<bool> loaded(plan.points(), false);
  for (size_t run : runs) {
    const size_t p = run / plan.seeds();
    if (loaded[p]) continue;
    std::ostringstream err;
    if (!LoadOrReport(path, {plan.Overrides(p), overlay}, &(*points)[p], &err)) {
      std::cerr << err.str();
      return false;
    }
    loaded[p] = true;
  }
  return true;
}

bool ReadText(const std::string& path, std::string* out) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  *out = ss.str();
  return static_cast<bool>(f);
}

// Counts, per point, the runs of this invocation still to finish.
class PointCounter {
 public:
  PointCounter(const SweepPlan& plan, const std::vector<SweepJob>& jobs) : seeds_(plan.seeds()) {
    for (const SweepJob& j : jobs) ++left_[j.run / seeds_];
  }
  void Done(size_t run) { done_ += --left_[run / seeds_] == 0; }
  size_t points() const { return left_.size(); }
  size_t done() const { return done_; }

 private:
  uint64_t seeds_;
  std::map<size_t, size_t> left_;
  std::atomic<size_t> done_{0};
};

struct Sweep {
  proto::Scenario base;  // the file with its overlay, without overrides: its pools name the metrics
  SweepPlan plan;
  std::vector<std::string> metrics;
  Json plan_json;
  std::string shard;  // "I/N" or ""
  std::vector<size_t> runs;
  std::string dir;
};

// Runs what `store` does not hold yet; 0, 2 or kExitInterrupted.
int RunRemaining(const Sweep& sw, const std::vector<proto::Scenario>& points, SweepStore* store,
                 SweepRows* rows, size_t jobs) {
  std::vector<SweepJob> todo;
  for (size_t run : sw.runs) {
    const size_t p = run / sw.plan.seeds();
    if (!rows->count(run))
      todo.push_back({run, sw.plan.Seed(p, run % sw.plan.seeds()), &points[p]});
  }
  PointCounter counter(sw.plan, todo);
  SweepProgress progress(&std::cerr, ::isatty(STDERR_FILENO) != 0, todo.size(), counter.points());
  SweepSink sink = [&](const SweepJob& job, const proto::RunSummary& s, std::string* error) {
    const std::string line = SweepCsvLine(sw.plan, job.run, MetricCells(sw.base, s));
    SweepRow row;
    if (!ParseSweepLine(line, sw.plan, sw.metrics.size(), &row, error)) return false;
    if (!store->Append(row, error)) return false;
    (*rows)[job.run] = std::move(row);
    counter.Done(job.run);
    return true;
  };
  const std::atomic<bool>* stop = InstallSweepInterrupt();
  std::string error;
  const bool ok = RunSweepJobs(
      todo, jobs, sink, [&](size_t done) { progress.Update(done, counter.done()); }, stop, &error);
  progress.Finish();
  if (!ok) return Fail(error);
  if (*stop && rows->size() < sw.runs.size()) {
    std::cerr << "interrupted: " << rows->size() << " of " << sw.runs.size() << " runs are in "
              << sw.dir << "; run the same command again to resume\n";
    return kExitInterrupted;
  }
  return kExitOk;
}

}  // namespace

int SweepCommand(const SweepArgs& args) {
  Sweep sw;
  std::vector<SweepParam> params;
  std::string error, text;
  if (!ParseParams(args.sets, &params, &error)) return Fail(error);
  const proto::Scenario& base = sw.base;
  if (!LoadOrReport(args.scenario, {{}, args.overlay}, &sw.base)) return kExitBadInput;
  if (!ReadText(args.scenario, &text)) return Fail(args.scenario + ": cannot read it");
  std::string overlay_text;
  if (!args.overlay.empty() && !ReadText(args.overlay, &overlay_text)) {
    return Fail(args.overlay + ": cannot read it");
  }
  sw.plan = SweepPlan(std::move(params), args.seeds, base.spec().seed());
  size_t shard = 0, shards = 1;
  if (!args.shard.empty() && !ParseShard(args.shard, &shard, &shards, &error)) return Fail(error);
  sw.shard = args.shard.empty() ? "" : std::to_string(shard) + "/" + std::to_string(shards);
  sw.runs = sw.plan.ShardRuns(shard, shards);
  std::vector<proto::Scenario> points;
  if (!LoadPoints(args.scenario, args.overlay, sw.plan, sw.runs, &points)) return kExitBadInput;
  sw.metrics = MetricNames(base);
  sw.plan_json = PlanJson(sw.plan, base.metadata().name(), text, sw.metrics);
  if (!args.overlay.empty()) AddOverlayToPlan(args.overlay, overlay_text, &sw.plan_json);
  sw.dir = args.out_dir.empty() ? "results/" + base.metadata().name() + "/sweep" : args.out_dir;
  SweepStore store(sw.dir, IdentityLine(sw.plan_json, sw.shard),
                   SweepCsvHeader(sw.plan, sw.metrics));
  SweepRows rows;
  if (!store.Open(sw.plan, sw.metrics.size(), &rows, &error)) return Fail(error);
  const size_t resumed = rows.size();
  const size_t jobs = args.jobs ? args.jobs : std::max(1u, std::thread::hardware_concurrency());
  if (int status = RunRemaining(sw, points, &store, &rows, jobs); status != kExitOk) return status;
  if (!store.Finish(rows, SweepJson(sw.plan, sw.plan_json, sw.metrics, sw.shard, rows), &error)) {
    return Fail(error);
  }
  std::cout << "wrote " << sw.dir << "/{sweep.csv,sweep.json}: " << sw.plan.points()
            << " point(s) x " << sw.plan.seeds() << " seed(s), " << rows.size() << " run(s)"
            << (sw.shard.empty() ? "" : " in shard " + sw.shard)
            << (resumed ? " (" + std::to_string(resumed) + " resumed)" : "") << "\n";
  return kExitOk;
}

}  // namespace mpsim
