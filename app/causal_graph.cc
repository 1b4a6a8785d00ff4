#include "app/causal_graph.h"

#include <array>
#include <cassert>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "api/string_hash.h"
#include "app/instance_states.h"

namespace mpsim {

// Reads the rows in order and links each moment to the moments it could not
// happen before. Every moment is also linked to the start, so the graph stays
// connected when a cause happened before the window.
class CausalGraph::Builder {
 public:
  explicit Builder(CausalGraph* g) : g_(g) {}

  // Room for a graph of `rows` rows: one moment per row at most, and the
  // links of most moments (the start, a cause or two) without regrowing.
  void Reserve(size_t rows) {
    moments_.reserve(rows + 2);
    edges_.reserve(3 * rows);
    waits_.reserve(3 * rows);
  }

  MomentId Start(Time t, std::string_view pool) { return Add(t, MomentKind::kStart, pool, ""); }

  // The graph in compressed form: built once, from every edge at once, where
  // adding edge by edge kept two growing edge lists per moment.
  CausalGraphBase Finish() {
    CausalGraphBase g(boost::edges_are_unsorted_multi_pass, edges_.begin(), edges_.end(),
                      waits_.begin(), moments_.size());
    for (size_t v = 0; v < moments_.size(); ++v) g[v] = moments_[v];
    return g;
  }

  void Row(const TimelineRow& r) {
    if (r.object_kind == "Instance") return Instance(r);
    if (r.object_kind == "Node") return NodeRow(r);
    if (r.object_kind == "InfraMachinePool" && r.field == "providerIDList") return List(r);
    if (r.object_kind == "MachinePool" && r.field == "nodeRef") return NodeRef(r);
    // Instances are created once the bootstrap data is ready, which the pool
    // shows by entering Provisioning; later phases follow instances instead.
    if (r.object_kind == "MachinePool" && r.field == "phase" && r.to == "Provisioning") {
      provisioning_ = Add(r.time, K::kProvisioning, "", r.to, {});
    }
    if (r.object_kind == "Fault") return FaultRow(r);
  }

  void End(Time t) {
    // Convergence waits for whatever happened last; every moment is a
    // candidate but faults that hit no instance (a zone out of capacity, a
    // reordered API answer): those delay instances, not the pool itself.
    const size_t n = moments_.size();
    g_->end_ = Add(t, MomentKind::kEnd, "", "");
    for (MomentId v = 0; v < n; ++v) {
      const Moment& m = moments_[v];
      if (m.kind != K::kFault || IsInstance(m.name)) Link(v, g_->end_);
    }
  }

 private:
  using K = MomentKind;

  void Instance(const TimelineRow& r) {
    const std::string_view x = r.object;
    objects_[Intern(x)].instance = true;
    if (r.field == "currentAction" && r.from.empty() && r.to == "CREATING") {
      return Effect(r, K::kRequested, x, {kill_, provisioning_, deleting_, gone_});
    }
    if (r.field != "state") return;
    const Change change{r.from, r.to};
    switch (StageOf(r.to)) {
      case InstanceStage::kCreating:
        if (!r.from.empty()) return;  // e.g. PROVISIONING -> STAGING: still creating
        // A replacement (rolling update, instance refresh) follows a deletion.
        return Effect(
            r, K::kCreated, change,
            {Of(x, K::kRequested), Of(x, K::kFault), kill_, deleting_, gone_, provisioning_});
      case InstanceStage::kRunning:
        running_ = Add(r.time, K::kRunning, x, change, {Of(x, K::kCreated)});
        return;
      case InstanceStage::kFailed:
        return Effect(r, K::kFailed, change, {Of(x, K::kCreated)});
      case InstanceStage::kDeleting:
        // A rolling update deletes the next old instance once a new one runs.
        deleting_ = Add(r.time, K::kDeleting, x, change, {running_});
        return;
      case InstanceStage::kGone:
        gone_ = Add(r.time, K::kGone, x, change, {Of(x, K::kDeleting), Of(x, K::kFault)});
        return;
      case InstanceStage::kOther:
        return;
    }
  }

  void NodeRow(const TimelineRow& r) {
    const std::string_view x = r.object;
    if (r.field == "registered" && r.to == "true") {
      return Effect(r, K::kRegistered, "", {Of(x, K::kRunning), Of(x, K::kCreated)});
    }
    if (r.field == "providerID" && !r.to.empty()) {
      instance_of_[r.to] = x;
      return Effect(r, K::kProviderIdSet, r.to, {Of(x, K::kRegistered)});
    }
    if (r.field == "Ready" && r.to == "True") {
      return Effect(r, K::kNodeReady, "", {Of(x, K::kRegistered), Of(x, K::kProviderIdSet)});
    }
    if (r.field == "deleted" && r.to == "true") {
      return Effect(r, K::kNodeDeleted, "", {Of(x, K::kGone), Of(x, K::kDeleting)});
    }
  }

  void List(const TimelineRow& r) {
    const bool added = !r.to.empty();
    const std::string_view id = added ? r.to : r.from;
    const std::string_view x = InstanceOf(id);
    if (added) {
      Add(r.time, K::kListed, x, id, {Of(x, K::kRunning), Of(x, K::kCreated)});
      return;
    }
    Add(r.time, K::kUnlisted, x, id, {Of(x, K::kGone), Of(x, K::kDeleting)});
  }

  void NodeRef(const TimelineRow& r) {
    if (!r.to.empty()) {
      const std::string_view n = r.to;
      Add(r.time, K::kNodeRefAdded, n, "",
          {Of(n, K::kListed), Of(n, K::kProviderIdSet), Of(n, K::kRegistered)});
      return;
    }
    const std::string_view n = r.from;
    Add(r.time, K::kNodeRefRemoved, n, "",
        {Of(n, K::kNodeDeleted), Of(n, K::kUnlisted), Of(n, K::kGone)});
  }

  void FaultRow(const TimelineRow& r) {
    const std::string_view x = r.object;
    MomentId v = Add(r.time, K::kFault, x, r.to,
                     {Of(x, K::kFault), Of(x, K::kRequested), Of(x, K::kRunning)});
    if (r.to == "instance.killed") kill_ = v;
  }

  // A moment's detail: a state change, or one text.
  struct Change {
    std::string_view from, to;
    Change(std::string_view f, std::string_view t) : from(f), to(t) {}
    Change(std::string_view t) : to(t) {}    // NOLINT: implicit, a plain detail
    Change(const std::string& t) : to(t) {}  // NOLINT: as above
    Change(const char* t) : to(t) {}         // NOLINT: as above
  };

  void Effect(const TimelineRow& r, K kind, Change detail,
              std::initializer_list<std::optional<MomentId>> causes) {
    Add(r.time, kind, r.object, detail, causes);
  }

  MomentId Add(Time t, K kind, std::string_view object, Change detail,
               std::initializer_list<std::optional<MomentId>> causes) {
    MomentId v = Add(t, kind, object, detail);
    Link(g_->start_, v);
    for (const std::optional<MomentId>& c : causes) {
      if (c) Link(*c, v);
    }
    objects_[Intern(object)].latest[static_cast<size_t>(kind)] = v + 1;
    return v;
  }

  MomentId Add(Time t, K kind, std::string_view object, Change detail) {
    moments_.push_back(Moment{t, kind, object, detail.from, detail.to});
    return moments_.size() - 1;
  }

  void Link(MomentId from, MomentId to) {
    // Causes come first in the timeline: the graph is acyclic by construction.
    assert(from < to && moments_[from].time <= moments_[to].time);
    edges_.emplace_back(from, to);
    waits_.push_back(Wait{moments_[to].time - moments_[from].time});
  }

  std::optional<MomentId> Of(std::string_view object, K kind) const {
    auto it = ids_.find(object);
    if (it == ids_.end()) return std::nullopt;
    const MomentId v = objects_[it->second].latest[static_cast<size_t>(kind)];
    if (v == 0) return std::nullopt;
    return v - 1;
  }

  // The object's index in objects_, added on first sight.
  size_t Intern(std::string_view object) {
    auto [it, fresh] = ids_.try_emplace(object, objects_.size());
    if (fresh) objects_.emplace_back();
    return it->second;
  }
  bool IsInstance(std::string_view object) const {
    auto it = ids_.find(object);
    return it != ids_.end() && objects_[it->second].instance;
  }

  // Nodes carry their instance's name; before the Node exists, the instance
  // is the providerID's last path segment (aws:///zone/i-1, gce://p/z/name).
  std::string_view InstanceOf(std::string_view id) const {
    auto it = instance_of_.find(id);
    if (it != instance_of_.end()) return it->second;
    const size_t slash = id.rfind('/');
    return slash == std::string::npos ? id : id.substr(slash + 1);
  }

  // What the builder knows of one object (instance or Node name, zone, "").
  struct Object {
    std::array<MomentId, kMomentKinds> latest{};  // 1 + its latest moment per kind; 0: none
    bool instance = false;                        // it has an instance state row
  };

  CausalGraph* g_;
  std::vector<Moment> moments_;  // vertex v is moments_[v], in timeline order
  std::vector<std::pair<MomentId, MomentId>> edges_;
  std::vector<Wait> waits_;  // one per edge
  // Only ever looked up, never iterated: no hash order reaches the graph.
  // Keys and values are views of the rows, as the moments' texts are.
  std::unordered_map<std::string_view, size_t, StringHash, StringEq> ids_;
  std::vector<Object> objects_;
  std::unordered_map<std::string_view, std::string_view, StringHash, StringEq>
      instance_of_;               // providerID -> instance
  std::optional<MomentId> kill_;  // the last instance.killed fault
  // The pool's last instance running, deleting and gone, whatever the instance.
  std::optional<MomentId> running_, deleting_, gone_;
  std::optional<MomentId> provisioning_;  // the pool entering phase Provisioning
};

CausalGraph::CausalGraph(const TimelineRows& rows, const std::string& pool, Time start, Time end) {
  Builder b(this);
  b.Reserve(rows.size());
  start_ = b.Start(start, pool);
  for (const TimelineRow& r : rows) {
    if (r.pool == pool && r.time >= start && r.time <= end) b.Row(r);
  }
  b.End(end);
  graph_ = b.Finish();
}

MomentId CausalGraph::BindingCause(MomentId v) const {
  MomentId best = start_;
  for (auto [e, last] = boost::in_edges(v, graph_); e != last; ++e) {
    const MomentId u = boost::source(*e, graph_);
    if (graph_[u].time > graph_[best].time || (graph_[u].time == graph_[best].time && u > best)) {
      best = u;
    }
  }
  return best;
}

std::vector<const Moment*> CausalGraph::FaultsBetween(Time from, Time to) const {
  std::vector<const Moment*> out;
  for (MomentId v = 0; v < size(); ++v) {
    const Moment& m = graph_[v];
    if (m.kind == MomentKind::kFault && m.time > from && m.time <= to) out.push_back(&m);
  }
  return out;
}

}  // namespace mpsim
