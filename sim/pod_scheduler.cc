#include "sim/pod_scheduler.h"

#include <algorithm>
#include <utility>

namespace mpsim {

bool NodeRoom::Fits(const Resources& r) const {
  return requested.cpu_milli + r.cpu_milli <= allocatable.cpu_milli &&
         requested.memory_bytes + r.memory_bytes <= allocatable.memory_bytes &&
         requested.pods + r.pods <= allocatable.pods;
}

PodScheduler::PodScheduler(EventLoop* loop, ApiServer* workload, Recorder* rec,
                           std::function<std::string(const std::string&)> pool_of,
                           std::function<Resources(const std::string&)> allocatable)
    : loop_(loop), rec_(rec), pool_of_(std::move(pool_of)), allocatable_(std::move(allocatable)) {
  workload->Store<Node>().Watch([this](WatchEvent<Node>::Type type, const auto&, const auto& node) {
    NodeChanged(type, *node);
  });
}

void PodScheduler::CreatePods(int count, Resources request) {
  request.pods = 1;
  const size_t before = pending_.size();
  for (int i = 0; i < count; ++i) AddPending(request);
  RecordPending(before);
  Wake();
}

void PodScheduler::DeletePods(int count) {
  const size_t before = pending_.size();
  std::vector<uint64_t> doomed;
  for (auto it = pending_.rbegin(); it != pending_.rend() && doomed.size() < size_t(count); ++it) {
    doomed.push_back(*it);
  }
  for (auto it = pods_.rbegin(); it != pods_.rend() && doomed.size() < size_t(count); ++it) {
    if (!it->second.node.empty()) doomed.push_back(it->first);
  }
  for (uint64_t id : doomed) {
    if (!pods_[id].node.empty()) Unbind(id);
    pending_.erase(id);
    pods_.erase(id);
  }
  RecordPending(before);
  Wake();  // room was freed
}

void PodScheduler::Evict(const std::string& node) {
  auto it = nodes_.find(node);
  if (it == nodes_.end()) return;
  const std::vector<uint64_t> ids(it->second.pods.begin(), it->second.pods.end());
  Replace(ids);
}

std::vector<const Pod*> PodScheduler::Pending() const {
  std::vector<const Pod*> out;
  out.reserve(pending_.size());
  for (uint64_t id : pending_) out.push_back(&pods_.at(id));
  return out;
}

bool PodScheduler::Schedulable(const Node& node) {
  if (node.meta.deletion_timestamp) return false;
  for (const Taint& t : node.spec.taints) {
    if (t.effect == "NoSchedule" || t.effect == "NoExecute") return false;
  }
  const Condition* ready = FindCondition(node.status.conditions, "Ready");
  return ready != nullptr && ready->status == "True";
}

void PodScheduler::NodeChanged(WatchEvent<Node>::Type type, const Node& node) {
  const std::string name(node.meta.name);
  if (type == WatchEvent<Node>::Type::kDeleted) {
    auto it = nodes_.find(name);
    if (it == nodes_.end()) return;
    const std::vector<uint64_t> ids(it->second.pods.begin(), it->second.pods.end());
    Replace(ids);
    nodes_.erase(name);
    return;
  }
  auto [it, fresh] = nodes_.try_emplace(name);
  if (fresh) {
    it->second.pool = pool_of_(name);
    it->second.allocatable = allocatable_(it->second.pool);
  }
  const bool was = it->second.schedulable;
  it->second.schedulable = Schedulable(node);
  if (it->second.schedulable && !was) Wake();
}

// The pods' ReplicaSet notices them gone and makes one new pending pod each.
void PodScheduler::Replace(const std::vector<uint64_t>& ids) {
  if (ids.empty()) return;
  const size_t before = pending_.size();
  for (uint64_t old : ids) {
    const Resources request = pods_.at(old).request;
    Unbind(old);
    pods_.erase(old);
    AddPending(request);
  }
  RecordPending(before);
  Wake();
}

void PodScheduler::AddPending(const Resources& request) {
  const uint64_t id = next_id_++;
  pods_[id] = Pod{id, request, loop_->Now(), "", false};
  pending_.insert(id);
  ++stats_.created;
}

void PodScheduler::Unbind(uint64_t id) {
  Pod& pod = pods_.at(id);
  auto it = nodes_.find(pod.node);
  if (it != nodes_.end()) {
    it->second.pods.erase(id);
    it->second.requested.cpu_milli -= pod.request.cpu_milli;
    it->second.requested.memory_bytes -= pod.request.memory_bytes;
    it->second.requested.pods -= 1;
  }
  pod.node.clear();
}

void PodScheduler::Wake() {
  if (pass_due_) return;
  pass_due_ = true;
  loop_->After(0, [this] {
    pass_due_ = false;
    SchedulePending();
  });
}

// First fit, oldest pod first. A pod no Node can take makes every later pod
// that requests at least as much of everything skip the search.
void PodScheduler::SchedulePending() {
  const size_t before = pending_.size();
  bool newly_unschedulable = false;
  std::vector<Resources> misfits;
  for (auto it = pending_.begin(); it != pending_.end();) {
    Pod& pod = pods_.at(*it);
    auto dominates = [&](const Resources& m) {
      return pod.request.cpu_milli >= m.cpu_milli && pod.request.memory_bytes >= m.memory_bytes;
    };
    NodeRoom* room = nullptr;
    if (std::none_of(misfits.begin(), misfits.end(), dominates)) {
      for (auto& [name, n] : nodes_) {
        if (n.schedulable && n.Fits(pod.request)) {
          room = &n;
          pod.node = name;
          break;
        }
      }
    }
    if (room == nullptr) {
      misfits.push_back(pod.request);
      newly_unschedulable |= !pod.tried;
      pod.tried = true;
      ++it;
      continue;
    }
    room->pods.insert(pod.id);
    room->requested.cpu_milli += pod.request.cpu_milli;
    room->requested.memory_bytes += pod.request.memory_bytes;
    room->requested.pods += 1;
    ++stats_.scheduled;
    stats_.latencies.push_back(loop_->Now() - pod.created);
    slowest_.Bound(room->pool, {pod.id, pod.created, loop_->Now(), pod.node});
    it = pending_.erase(it);
  }
  RecordPending(before);
  if (newly_unschedulable && on_unschedulable_) on_unschedulable_();
}

// A timeline row `Pods,pending,count` whenever the number of pending pods changes.
void PodScheduler::RecordPending(size_t before) {
  if (pending_.size() == before) return;
  rec_->Change(loop_->Now(), "Pods", "pending", "count", std::to_string(before),
               std::to_string(pending_.size()));
}

}  // namespace mpsim
