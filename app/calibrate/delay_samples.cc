#include "app/calibrate/delay_samples.h"

#include <map>

#include "app/calibrate/provider_id.h"

namespace mpsim::calibrate {
namespace {

constexpr double kUnderResolutionS = 0.5;

void Skip(DelaySamples* d, const std::string& why, const std::string& row) {
  for (UnusedRows& u : d->unused) {
    if (u.why == why) {
      ++u.count;
      return;
    }
  }
  d->unused.push_back({why, 1, row});
}

// Adds `to - from` (microseconds) as seconds; a negative delay is clock skew.
void AddDelay(DelaySamples* d, int64_t from, int64_t to, const std::string& skew,
              const std::string& row) {
  if (to < from) return Skip(d, skew, row);
  if (to == from) {
    ++d->under_resolution;
    d->seconds.push_back(kUnderResolutionS);
    return;
  }
  d->seconds.push_back(static_cast<double>(to - from) / 1e6);
}

void MeasureRegistration(const Dumps& dumps, DelaySamples* d) {
  if (dumps.instances.empty()) return;  // no listing: nothing to join
  std::map<std::string, const InstanceRow*> by_key;
  for (const InstanceRow& i : dumps.instances) by_key.emplace(JoinKey(i.provider_id), &i);
  std::map<std::string, bool> joined;
  for (const NodeRow& n : dumps.nodes) {
    if (n.provider_id.empty()) {
      Skip(d, "Node without a providerID", n.name);
      continue;
    }
    auto it = by_key.find(JoinKey(n.provider_id));
    if (it == by_key.end()) {
      Skip(d, "Node without an instance in the listings", n.name);
      continue;
    }
    joined[it->first] = true;
    AddDelay(d, it->second->launched, n.created,
             "clock skew: Node created before its instance launched", n.name);
  }
  for (const InstanceRow& i : dumps.instances) {
    if (!joined.count(JoinKey(i.provider_id))) Skip(d, "instance without a Node", i.name);
  }
}

void MeasureReady(const Dumps& dumps, DelaySamples* d) {
  for (const NodeRow& n : dumps.nodes) {
    if (!n.ready) {
      Skip(d, "Node never Ready", n.name);
      continue;
    }
    AddDelay(d, n.created, *n.ready, "clock skew: Ready before the Node was created", n.name);
  }
}

void MeasureCcm(const Dumps& dumps, MeasuredDelays* m) {
  DelaySamples* d = &m->ccm;
  for (const NodeRow& n : dumps.nodes) {
    if (n.provider_id.empty()) {
      Skip(d, "Node without a providerID", n.name);
    } else if (n.provider_id_manager.empty()) {
      Skip(d, "no managedFields entry owns spec.providerID (kubectl needs --show-managed-fields)",
           n.name);
    } else if (n.provider_id_manager == "kubelet") {
      ++m->provider_id_by_kubelet;
      Skip(d, "providerID set by the kubelet", n.name);
    } else if (!n.provider_id_time) {
      Skip(d, "managedFields entry without a time", n.name);
    } else {
      AddDelay(d, n.created, *n.provider_id_time,
               "clock skew: providerID set before the Node was created", n.name);
    }
  }
}

}  // namespace

MeasuredDelays MeasureDelays(const Dumps& dumps) {
  MeasuredDelays m;
  m.registration = {.key = "nodeRegistration", .what = "instance launch -> Node registered"};
  m.ready = {.key = "nodeReady", .what = "Node registered -> Ready"};
  m.ccm = {.key = "ccmDelay", .what = "Node registered -> providerID set by the CCM"};
  MeasureRegistration(dumps, &m.registration);
  MeasureReady(dumps, &m.ready);
  MeasureCcm(dumps, &m);
  return m;
}

}  // namespace mpsim::calibrate
