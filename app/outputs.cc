#include "app/outputs.h"

#include <google/protobuf/util/json_util.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/atomic_file.h"
#include "app/instance_states.h"

namespace mpsim {
namespace {

using nlohmann::json;
namespace pb = google::protobuf;

// Proto3 JSON prints 64-bit integers as strings; our readers want numbers.
void Int64sToNumbers(const pb::Descriptor* d, json* j) {
  for (int i = 0; i < d->field_count(); ++i) {
    const pb::FieldDescriptor* f = d->field(i);
    auto it = j->find(f->name());
    if (it == j->end()) continue;
    auto fix = [&](json* v) {
      // uint64 (a seed) may exceed int64: only a negative value goes through stoll.
      if (!v->is_string()) return;
      const std::string s = v->get<std::string>();
      if (!s.empty() && s[0] == '-') {
        *v = std::stoll(s);
      } else {
        *v = std::stoull(s);
      }
    };
    bool is64 = f->cpp_type() == pb::FieldDescriptor::CPPTYPE_INT64 ||
                f->cpp_type() == pb::FieldDescriptor::CPPTYPE_UINT64;
    if (f->is_map()) {
      const pb::FieldDescriptor* value = f->message_type()->map_value();
      if (value->cpp_type() == pb::FieldDescriptor::CPPTYPE_INT64 ||
          value->cpp_type() == pb::FieldDescriptor::CPPTYPE_UINT64) {
        for (auto& [k, v] : it->items()) fix(&v);
      }
    } else if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
      if (f->is_repeated()) {
        for (json& e : *it) Int64sToNumbers(f->message_type(), &e);
      } else {
        Int64sToNumbers(f->message_type(), &*it);
      }
    } else if (is64) {
      if (f->is_repeated()) {
        for (json& e : *it) fix(&e);
      } else {
        fix(&*it);
      }
    }
  }
}

std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string Seconds(Time t) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6f", ToSeconds(t));
  return buf;
}

json Meta(const char* what, int pid, int tid, const std::string& name) {
  return {{"ph", "M"}, {"name", what}, {"pid", pid}, {"tid", tid}, {"args", {{"name", name}}}};
}

json Span(const std::string& name, int pid, int tid, Time start, Time end) {
  return {{"ph", "X"},  {"name", name}, {"pid", pid},
          {"tid", tid}, {"ts", start},  {"dur", end - start}};
}

// Per pool: a process; thread 0 holds the phases, one thread per instance
// holds its lifecycle. Controllers get a process of their own.
class TraceBuilder {
 public:
  explicit TraceBuilder(const RunOutput& out) : out_(out) {
    end_ = static_cast<Time>(out.summary.end_time_s() * kSecond + 0.5);
    int pid = 1;
    for (const auto& p : out.summary.pools()) {
      pids_[p.name()] = pid;
      events_.push_back(Meta("process_name", pid, 0, "MachinePool " + p.name()));
      events_.push_back(Meta("thread_name", pid, 0, "phase"));
      ++pid;
    }
  }

  json Build() {
    for (const TimelineRow& r : out_.recorder.rows()) Row(r);
    for (auto& [key, open] : open_)
      events_.push_back(Span(open.name, key.first, key.second, open.start, end_));
    Controllers();
    return {{"traceEvents", events_}, {"displayTimeUnit", "ms"}};
  }

 private:
  struct Open {
    std::string name;
    Time start;
  };

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
      Switch({pid, Tid(pid, r.object)}, gone ? "" : r.to, r.time);
    } else if (r.object_kind == "Node" && r.field == "registered" && r.to == "true") {
      Switch({pid, Tid(pid, r.object)}, "Node registered", r.time);
    } else if (r.object_kind == "Node" && r.field == "Ready" && r.to == "True") {
      Switch({pid, Tid(pid, r.object)}, "Node Ready", r.time);
    } else if (r.object_kind == "Node" || r.object_kind == "Fault") {
      Instant(r.object_kind + " " + r.field + "=" + r.to, pid, Tid(pid, r.object), r.time);
    }
  }

  void Instant(const std::string& name, int pid, int tid, Time t) {
    events_.push_back(
        {{"ph", "i"}, {"s", "t"}, {"name", name}, {"pid", pid}, {"tid", tid}, {"ts", t}});
  }

  // Replicas as a counter track: desired, ready and available over time.
  void Counter(const TimelineRow& r, int pid) {
    static const std::map<std::string, std::string> kSeries = {{"spec.replicas", "desired"},
                                                               {"readyReplicas", "ready"},
                                                               {"availableReplicas", "available"}};
    auto it = kSeries.find(r.field);
    if (it == kSeries.end()) return;
    json& values = replicas_[pid];
    if (values.is_null()) values = {{"desired", 0}, {"ready", 0}, {"available", 0}};
    values[it->second] = r.to.empty() ? 0 : std::stoi(r.to);
    events_.push_back(
        {{"ph", "C"}, {"name", "replicas"}, {"pid", pid}, {"ts", r.time}, {"args", values}});
  }

  void Switch(std::pair<int, int> key, const std::string& next, Time t) {
    auto it = open_.find(key);
    if (it != open_.end()) {
      events_.push_back(Span(it->second.name, key.first, key.second, it->second.start, t));
      open_.erase(it);
    }
    if (!next.empty()) open_[key] = {next, t};
  }

  int Tid(int pid, const std::string& object) {
    auto [it, fresh] = tids_.try_emplace({pid, object}, static_cast<int>(tids_.size()) + 1);
    if (fresh) events_.push_back(Meta("thread_name", pid, it->second, object));
    return it->second;
  }

  void Controllers() {
    const int pid = static_cast<int>(pids_.size()) + 1;
    events_.push_back(Meta("process_name", pid, 0, "controllers"));
    std::map<std::string, int> tids;
    for (const ReconcileSpan& s : out_.recorder.reconciles()) {
      auto [it, fresh] = tids.try_emplace(s.controller, static_cast<int>(tids.size()) + 1);
      if (fresh) events_.push_back(Meta("thread_name", pid, it->second, s.controller));
      json e = Span("reconcile " + s.object, pid, it->second, s.start, s.end);
      e["args"] = {{"outcome", s.outcome}};
      events_.push_back(std::move(e));
      if (s.outcome.rfind("error", 0) == 0) {  // API errors and throttling stand out
        events_.push_back({{"ph", "i"},
                           {"s", "t"},
                           {"name", s.outcome},
                           {"pid", pid},
                           {"tid", it->second},
                           {"ts", s.start}});
      }
    }
  }

  const RunOutput& out_;
  Time end_ = 0;
  json events_ = json::array();
  std::map<std::string, int> pids_;
  std::map<std::pair<int, std::string>, int> tids_;
  std::map<std::pair<int, int>, Open> open_;
  std::map<int, json> replicas_;  // pid -> the last {desired, ready, available}
};

}  // namespace

std::string SummaryJson(const proto::RunSummary& s) {
  pb::util::JsonPrintOptions opts;
  opts.preserve_proto_field_names = true;
  opts.always_print_primitive_fields = true;
  std::string text;
  (void)pb::util::MessageToJsonString(s, &text, opts);
  json j = json::parse(text);
  Int64sToNumbers(proto::RunSummary::descriptor(), &j);
  for (int i = 0; i < s.pools_size(); ++i) {
    if (!s.pools(i).has_time_to_converge_s()) j["pools"][i]["time_to_converge_s"] = nullptr;
  }
  return j.dump(2) + "\n";
}

std::string TimelineCsv(const Recorder& rec) {
  std::ostringstream out;
  out << "time_s,object_kind,object,field,from,to\n";
  for (const TimelineRow& r : rec.rows()) {
    out << Seconds(r.time) << ',' << CsvField(r.object_kind) << ',' << CsvField(r.object) << ','
        << CsvField(r.field) << ',' << CsvField(r.from) << ',' << CsvField(r.to) << '\n';
  }
  return out.str();
}

std::string TraceJson(const RunOutput& out) { return TraceBuilder(out).Build().dump() + "\n"; }

bool WriteRunOutputs(const std::string& dir, const RunOutput& out, std::string* error) {
  // summary.json goes first and comes back last: CI reads it, so its presence
  // means the other two files are there and come from the same run.
  std::error_code ec;
  std::filesystem::remove(dir + "/summary.json", ec);
  return WriteFileAtomic(dir + "/timeline.csv", TimelineCsv(out.recorder), error) &&
         WriteFileAtomic(dir + "/trace.json", TraceJson(out), error) &&
         WriteFileAtomic(dir + "/summary.json", SummaryJson(out.summary), error);
}

}  // namespace mpsim
