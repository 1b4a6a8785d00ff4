#include "app/report/outputs.h"

#include <google/protobuf/util/json_util.h>

#include <charconv>
#include <filesystem>
#include <future>
#include <nlohmann/json.hpp>
#include <string_view>
#include <utility>

#include "app/report/atomic_file.h"
#include "app/report/pod_wait_facts.h"
#include "app/report/text_sink.h"
#include "app/report/trace_json.h"

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

void AppendCsvField(std::string* out, const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) {
    *out += s;
    return;
  }
  out->push_back('"');
  for (char c : s) {
    if (c == '"') out->push_back('"');
    out->push_back(c);
  }
  out->push_back('"');
}

// As printf's "%.6f" (to_chars with a precision is specified to match it).
void AppendSeconds(std::string* out, Time t) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, ToSeconds(t), std::chars_format::fixed, 6);
  out->append(buf, ec == std::errc() ? end : buf);
}

// A directory used before by a run with pods must not keep its file: the
// report would explain that run's pods.
bool WritePodWaits(const std::string& dir, const RunOutput& out, std::string* error) {
  const std::string file = dir + "/" + kPodWaitsFile;
  if (out.pod_waits) return WriteFileAtomic(file, PodWaitsJson(*out.pod_waits), error);
  std::error_code ec;
  std::filesystem::remove(file, ec);
  return true;
}

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

void WriteTimelineCsv(const Recorder& rec, TextSink sink) {
  ChunkedText out(std::move(sink));
  std::string& text = out.text();
  text += "time_s,object_kind,object,field,from,to\n";
  for (const TimelineRow& r : rec.rows()) {
    AppendSeconds(&text, r.time);
    for (const std::string* f : {&r.object_kind, &r.object, &r.field, &r.from, &r.to}) {
      text.push_back(',');
      AppendCsvField(&text, *f);
    }
    text.push_back('\n');
    out.EndPiece();
  }
  out.Flush();
}

std::string TimelineCsv(const Recorder& rec) {
  std::string text;
  WriteTimelineCsv(rec, AppendTo(&text));
  return text;
}

bool WriteRunOutputs(const std::string& dir, const RunOutput& out, std::string* error) {
  // summary.json goes first and comes back last: CI reads it, so its presence
  // means the other two files are there and come from the same run.
  std::error_code ec;
  std::filesystem::remove(dir + "/summary.json", ec);
  std::filesystem::create_directories(dir, ec);  // once, not by both writers
  // Each text goes to its file as it is made, a chunk at a time. The trace,
  // the longer, has a thread of its own, so that the second core does not
  // idle for the tail of a run.
  std::string trace_error;
  std::future<bool> trace = std::async(std::launch::async, [&] {
    AtomicFileWriter file(dir + "/trace.json");
    WriteTraceJson(out, [&file](std::string_view piece) { file.Append(piece); });
    return file.Commit(&trace_error);
  });
  AtomicFileWriter csv(dir + "/timeline.csv");
  WriteTimelineCsv(out.recorder, [&csv](std::string_view piece) { csv.Append(piece); });
  const bool csv_ok = csv.Commit(error) && WritePodWaits(dir, out, error);
  const bool trace_ok = trace.get();
  if (csv_ok && !trace_ok) *error = trace_error;
  return csv_ok && trace_ok &&
         WriteFileAtomic(dir + "/summary.json", SummaryJson(out.summary), error);
}

}  // namespace mpsim
