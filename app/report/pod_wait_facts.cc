#include "app/report/pod_wait_facts.h"

#include <google/protobuf/util/json_util.h>

#include "app/report/json_message.h"

namespace mpsim {
namespace {

namespace pb = google::protobuf;

bool IsScaleUp(const TimelineRow& r) {
  return r.object_kind == "Autoscaler" && r.field.rfind("scaleUp:", 0) == 0;
}

// One pass over the pool's rows, which are in time order: the scale-up in
// force when the node's instance first appears is the one that asked for it.
void FillNodeFacts(const Recorder& rec, const PodWait& w, proto::PoolPodWait* out) {
  const TimelineRow* scale_up = nullptr;
  const TimelineRow* cause = nullptr;
  for (const TimelineRow* r : rec.RowsOf(out->pool())) {
    if (IsScaleUp(*r)) scale_up = r;
    if (r->object_kind == "MachinePool" && r->field == "nodeRef" && r->to == w.node &&
        r->time <= w.bound_at) {
      out->set_node_ref_at_s(ToSeconds(r->time));
    }
    if (r->object != w.node) continue;
    if (r->object_kind == "Instance" && !out->has_launched_at_s()) {
      out->set_launched_at_s(ToSeconds(r->time));
      cause = scale_up;
    }
    if (r->object_kind == "Node" && r->field == "Ready" && r->to == "True" &&
        r->time <= w.bound_at) {
      out->set_ready_at_s(ToSeconds(r->time));
    }
  }
  if (cause == nullptr) return;
  proto::AutoscalerDecision* d = out->mutable_scale_up();
  d->set_time_s(ToSeconds(cause->time));
  d->set_what(cause->field);
  d->set_from_replicas(cause->from);
  d->set_to_replicas(cause->to);
}

}  // namespace

proto::PodWaits PodWaitFacts(const std::vector<std::string>& pools, const SlowestPodWaits& waits,
                             const PendingAtEnd& pending, const Recorder& rec) {
  proto::PodWaits out;
  out.set_pending_at_end(pending.count);
  if (pending.oldest_since) out.set_oldest_pending_since_s(ToSeconds(*pending.oldest_since));
  for (const std::string& pool : pools) {
    proto::PoolPodWait* p = out.add_pools();
    p->set_pool(pool);
    auto it = waits.by_pool().find(pool);
    if (it == waits.by_pool().end()) continue;
    const PodWait& w = it->second;
    p->set_pod(PodName(w.pod));
    p->set_pending_since_s(ToSeconds(w.pending_since));
    p->set_bound_at_s(ToSeconds(w.bound_at));
    p->set_wait_s(ToSeconds(w.wait()));
    p->set_node(w.node);
    FillNodeFacts(rec, w, p);
  }
  return out;
}

std::string PodWaitsJson(const proto::PodWaits& w) {
  pb::util::JsonPrintOptions opts;
  opts.preserve_proto_field_names = true;
  opts.always_print_primitive_fields = true;
  opts.add_whitespace = true;
  std::string text;
  (void)pb::util::MessageToJsonString(w, &text, opts);
  return text;
}

bool ReadPodWaits(const std::string& file, proto::PodWaits* out, std::string* error) {
  return ReadJsonMessage(file, "pod_waits.json", out, error);
}

}  // namespace mpsim
