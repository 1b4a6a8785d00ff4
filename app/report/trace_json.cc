#include "app/report/trace_json.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "app/report/instance_states.h"
#include "app/report/text_sink.h"
#include "util/flat_view_map.h"

namespace mpsim {
namespace {

// JSON string escaping: quotes, backslashes and control characters.
void AppendQuoted(std::string* out, std::string_view s) {
  out->push_back('"');
  for (char c : s) {
    switch (c) {
      case '"':
        *out += "\\\"";
        break;
      case '\\':
        *out += "\\\\";
        break;
      case '\b':
        *out += "\\b";
        break;
      case '\f':
        *out += "\\f";
        break;
      case '\n':
        *out += "\\n";
        break;
      case '\r':
        *out += "\\r";
        break;
      case '\t':
        *out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
          *out += buf;
        } else {
          out->push_back(c);
        }
    }
  }
  out->push_back('"');
}

// One trace event; its fields print in sorted key order.
struct Event {
  std::string_view args;  // a rendered JSON object, or empty
  std::optional<Time> dur;
  std::string_view name;
  const char* ph;
  int pid;
  const char* s = nullptr;  // an instant's scope
  std::optional<int> tid;
  std::optional<Time> ts;
};

class Writer {
 public:
  explicit Writer(TextSink sink) : out_(std::move(sink)) {
    text_ += "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[";
  }

  void Add(const Event& e) {
    text_ += first_ ? "{" : ",{";
    first_ = false;
    bool any = false;
    auto key = [&](const char* k) {
      if (any) text_.push_back(',');
      any = true;
      text_.push_back('"');
      text_ += k;
      text_ += "\":";
    };
    if (!e.args.empty()) key("args"), text_ += e.args;
    if (e.dur) key("dur"), text_ += std::to_string(*e.dur);
    key("name"), AppendQuoted(&text_, e.name);
    key("ph"), AppendQuoted(&text_, e.ph);
    key("pid"), text_ += std::to_string(e.pid);
    if (e.s) key("s"), AppendQuoted(&text_, e.s);
    if (e.tid) key("tid"), text_ += std::to_string(*e.tid);
    if (e.ts) key("ts"), text_ += std::to_string(*e.ts);
    text_.push_back('}');
    out_.EndPiece();
  }

  void Finish() {
    text_ += "]}\n";
    out_.Flush();
  }

 private:
  ChunkedText out_;
  std::string& text_ = out_.text();
  bool first_ = true;
};

std::string ArgsObject(const char* key, std::string_view value) {
  std::string out = "{\"";
  out += key;
  out += "\":";
  AppendQuoted(&out, value);
  return out + "}";
}

// Per pool: a process; thread 0 holds the phases, one thread per instance
// holds its lifecycle. Controllers get a process of their own.
class TraceBuilder {
 public:
  TraceBuilder(const RunOutput& out, TextSink sink) : out_(out), w_(std::move(sink)) {
    end_ = static_cast<Time>(out.summary.end_time_s() * kSecond + 0.5);
    tids_.resize(out.summary.pools().size() + 1);
    phase_open_.resize(out.summary.pools().size() + 1);
    open_.resize(1);  // tids start at 1
    tid_pid_.resize(1);
    int pid = 1;
    for (const auto& p : out.summary.pools()) {
      pids_[p.name()] = pid;
      Meta("process_name", pid, 0, "MachinePool " + p.name());
      Meta("thread_name", pid, 0, "phase");
      ++pid;
    }
  }

  void Build() {
    for (const TimelineRow& r : out_.recorder.rows()) Row(r);
    CloseOpenSpans();
    Controllers();
    QueueLoads();
    w_.Finish();
  }

 private:
  struct Open {
    std::string_view name;  // views a row or a literal, which outlive the builder
    Time start;
  };
  struct Replicas {
    int desired = 0, ready = 0, available = 0;
  };

  void Meta(const char* what, int pid, int tid, std::string_view name) {
    const std::string args = ArgsObject("name", name);
    w_.Add({.args = args, .name = what, .ph = "M", .pid = pid, .tid = tid});
  }

  void Span(std::string_view name, int pid, int tid, Time start, Time end,
            std::string_view args = {}) {
    w_.Add({.args = args,
            .dur = end - start,
            .name = name,
            .ph = "X",
            .pid = pid,
            .tid = tid,
            .ts = start});
  }

  void Instant(std::string_view name, int pid, int tid, Time t) {
    w_.Add({.name = name, .ph = "i", .pid = pid, .s = "t", .tid = tid, .ts = t});
  }

  // An instance's track runs through its lifecycle: the cloud's states, then
  // "Node registered" and "Node Ready", with instants for the providerID, the
  // nodeRef match and faults.
  void Row(const TimelineRow& r) {
    auto pit = pids_.find(r.pool);
    if (pit == pids_.end()) return;
    int pid = pit->second;
    if (r.object_kind == "MachinePool" && r.field == "phase") {
      Switch({pid, 0}, r.to, r.time);
    } else if (r.object_kind == "MachinePool" && r.field == "nodeRef") {
      if (!r.to.empty()) Instant("nodeRef matched", pid, Tid(pid, r.to), r.time);
    } else if (r.object_kind == "MachinePool") {
      Counter(r, pid);
    } else if (r.object_kind == "Instance" && r.field == "state") {
      const bool gone = StageOf(r.to) == InstanceStage::kGone;
      Switch({pid, Tid(pid, r.object)}, gone ? std::string_view() : std::string_view(r.to), r.time);
    } else if (r.object_kind == "Node" && r.field == "registered" && r.to == "true") {
      Switch({pid, Tid(pid, r.object)}, "Node registered", r.time);
    } else if (r.object_kind == "Node" && r.field == "Ready" && r.to == "True") {
      Switch({pid, Tid(pid, r.object)}, "Node Ready", r.time);
    } else if (r.object_kind == "Node" && r.field == "kubeletVersion") {
      // The version is in the timeline; the trace keeps the instants it had.
    } else if (r.object_kind == "Node" || r.object_kind == "Fault") {
      Instant(r.object_kind + " " + r.field + "=" + r.to, pid, Tid(pid, r.object), r.time);
    } else if (r.object_kind == "Autoscaler") {
      // The pool's "cluster-autoscaler" track: one instant per decision. The
      // track's name outlives the builder, which keeps a view of it.
      static const std::string kTrack = "cluster-autoscaler";
      Instant(r.field + " (" + r.from + " -> " + r.to + ")", pid, Tid(pid, kTrack), r.time);
    }
  }

  // Replicas as a counter track: desired, ready and available over time.
  void Counter(const TimelineRow& r, int pid) {
    int Replicas::*series = nullptr;
    if (r.field == "spec.replicas") series = &Replicas::desired;
    if (r.field == "readyReplicas") series = &Replicas::ready;
    if (r.field == "availableReplicas") series = &Replicas::available;
    if (series == nullptr) return;
    Replicas& v = replicas_[pid];
    v.*series = r.to.empty() ? 0 : std::stoi(r.to);
    const std::string args = "{\"available\":" + std::to_string(v.available) +
                             ",\"desired\":" + std::to_string(v.desired) +
                             ",\"ready\":" + std::to_string(v.ready) + "}";
    w_.Add({.args = args, .name = "replicas", .ph = "C", .pid = pid, .ts = r.time});
  }

  // The open span of a track: thread 0 of a pid, or an instance's tid.
  std::optional<Open>& OpenOf(int pid, int tid) { return tid == 0 ? phase_open_[pid] : open_[tid]; }

  void Switch(std::pair<int, int> key, std::string_view next, Time t) {
    std::optional<Open>& open = OpenOf(key.first, key.second);
    if (open) Span(open->name, key.first, key.second, open->start, t);
    open.reset();
    if (!next.empty()) open = Open{next, t};
  }

  // Spans still open at the end run to it, in (pid, tid) order.
  void CloseOpenSpans() {
    std::vector<std::pair<int, int>> keys;
    for (size_t pid = 1; pid < phase_open_.size(); ++pid) {
      if (phase_open_[pid]) keys.emplace_back(static_cast<int>(pid), 0);
    }
    for (size_t tid = 1; tid < open_.size(); ++tid) {
      if (open_[tid]) keys.emplace_back(tid_pid_[tid], static_cast<int>(tid));
    }
    std::sort(keys.begin(), keys.end());
    for (const auto& [pid, tid] : keys) {
      const Open& open = *OpenOf(pid, tid);
      Span(open.name, pid, tid, open.start, end_);
    }
  }

  // Tracks are found by the rows' object names, which outlive the builder.
  int Tid(int pid, const std::string& object) {
    FlatViewMap<int>& of_pid = tids_[pid];
    const uint64_t hash = FlatViewMap<int>::Hash(object);
    if (auto it = of_pid.find(object, hash); it != of_pid.end()) return it->second;
    const int tid = ++tid_count_;
    of_pid.InsertOrAssign(object, tid, hash);
    open_.emplace_back();
    tid_pid_.push_back(pid);
    Meta("thread_name", pid, tid, object);
    return tid;
  }

  void Controllers() {
    const int pid = static_cast<int>(pids_.size()) + 1;
    Meta("process_name", pid, 0, "controllers");
    std::map<std::string, int> tids;
    for (const ReconcileSpan& s : out_.recorder.reconciles()) {
      auto [it, fresh] = tids.try_emplace(s.controller, static_cast<int>(tids.size()) + 1);
      if (fresh) Meta("thread_name", pid, it->second, s.controller);
      Span("reconcile " + s.object, pid, it->second, s.start, s.end,
           ArgsObject("outcome", s.outcome));
      // API errors and throttling stand out.
      if (s.outcome.rfind("error", 0) == 0) Instant(s.outcome, pid, it->second, s.start);
    }
  }

  // Each controller's queue as a counter track on the controllers' process:
  // `depth` (keys due, waiting for a worker) and `busy` (workers in a
  // reconcile), one sample per moment the pair changed, so a saturated
  // controller shows as busy at its worker count while depth climbs.
  void QueueLoads() {
    const int pid = static_cast<int>(pids_.size()) + 1;
    for (const QueueLoad& load : out_.recorder.queue_loads()) {
      std::vector<QueueLoadStep> steps = load.steps;
      std::stable_sort(steps.begin(), steps.end(),
                       [](const QueueLoadStep& a, const QueueLoadStep& b) { return a.at < b.at; });
      const std::string name = load.controller + " queue";
      int depth = 0, busy = 0, shown_depth = -1, shown_busy = -1;
      for (size_t i = 0; i < steps.size(); ++i) {
        depth += steps[i].depth;
        busy += steps[i].busy;
        if (i + 1 < steps.size() && steps[i + 1].at == steps[i].at) continue;
        if (depth == shown_depth && busy == shown_busy) continue;
        shown_depth = depth, shown_busy = busy;
        const std::string args =
            "{\"busy\":" + std::to_string(busy) + ",\"depth\":" + std::to_string(depth) + "}";
        w_.Add({.args = args, .name = name, .ph = "C", .pid = pid, .ts = steps[i].at});
      }
    }
  }

  const RunOutput& out_;
  Writer w_;
  Time end_ = 0;
  std::map<std::string, int> pids_;
  std::vector<FlatViewMap<int>> tids_;           // by pid: object -> tid
  int tid_count_ = 0;                            // tids are numbered across every pid
  std::vector<std::optional<Open>> phase_open_;  // by pid: thread 0's open span
  std::vector<std::optional<Open>> open_;        // by tid: an instance's open span
  std::vector<int> tid_pid_;                     // by tid: its pid
  std::map<int, Replicas> replicas_;             // pid -> the last desired, ready, available
};

}  // namespace

void WriteTraceJson(const RunOutput& out, TextSink sink) {
  TraceBuilder(out, std::move(sink)).Build();
}

std::string TraceJson(const RunOutput& out) {
  std::string text;
  WriteTraceJson(out, AppendTo(&text));
  return text;
}

}  // namespace mpsim
