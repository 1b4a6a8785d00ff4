#include "app/report/causal_graph.h"

#include <array>
#include <cassert>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "app/report/instance_states.h"
#include "util/flat_view_map.h"

namespace mpsim {

// Reads the rows in order and links each moment to the moments it could not
// happen before. Every moment is also linked to the start, so the graph stays
// connected when a cause happened before the window.
class CausalGraph::Builder {
 public:
  explicit Builder(CausalGraph* g) : g_(g) {}

  // Room for a graph of `rows` rows: one moment per row at most, and an
  // object per few rows (an instance or Node has several each).
  void Reserve(size_t rows) {
    g_->moments_.reserve(rows + 2);
    g_->binding_.reserve(rows + 2);
    ids_.reserve(rows / 4);
    objects_.reserve(rows / 4);
    names_.reserve(rows / 4);
  }

  MomentId Start(Time t, std::string_view pool) { return Add(t, MomentKind::kStart, pool, ""); }

  void Row(const TimelineRow& r) {
    if (r.object_kind == "Instance") return Instance(r);
    if (r.object_kind == "Node") return NodeRow(r);
    if (r.object_kind == "InfraMachinePool" && r.field == "providerIDList") return List(r);
    if (r.object_kind == "MachinePool" && r.field == "nodeRef") return NodeRef(r);
    // Instances are created once the bootstrap data is ready, which the pool
    // shows by entering Provisioning; later phases follow instances instead.
    if (r.object_kind == "MachinePool" && r.field == "phase" && r.to == "Provisioning") {
      provisioning_ = Add(r.time, K::kProvisioning, Intern(""), r.to, {});
    }
    if (r.object_kind == "Fault") return FaultRow(r);
  }

  void End(Time t) {
    // Convergence waits for whatever happened last; every moment is a
    // candidate but faults that hit no instance (a zone out of capacity, a
    // reordered API answer): those delay instances, not the pool itself.
    const size_t n = g_->moments_.size();
    g_->end_ = Add(t, MomentKind::kEnd, "", "");
    for (MomentId v = 0; v < n; ++v) {
      const Moment& m = g_->moments_[v];
      if (m.kind != K::kFault || IsInstance(m.name)) Link(v, g_->end_);
    }
  }

 private:
  using K = MomentKind;
  // An object's index in objects_: each row looks its object up once.
  using ObjectId = size_t;

  void Instance(const TimelineRow& r) {
    const ObjectId x = Intern(r.object);
    objects_[x].instance = true;
    if (r.field == "currentAction" && r.from.empty() && r.to == "CREATING") {
      return Effect(r, x, K::kRequested, r.object, {kill_, provisioning_, deleting_, gone_});
    }
    if (r.field != "state") return;
    const Change change{r.from, r.to};
    switch (StageOf(r.to)) {
      case InstanceStage::kCreating:
        if (!r.from.empty()) return;  // e.g. PROVISIONING -> STAGING: still creating
        // A replacement (rolling update, instance refresh) follows a deletion.
        return Effect(
            r, x, K::kCreated, change,
            {Of(x, K::kRequested), Of(x, K::kFault), kill_, deleting_, gone_, provisioning_});
      case InstanceStage::kRunning:
        running_ = Add(r.time, K::kRunning, x, change, {Of(x, K::kCreated)});
        return;
      case InstanceStage::kFailed:
        return Effect(r, x, K::kFailed, change, {Of(x, K::kCreated)});
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
    if (r.field == "registered" && r.to == "true") {
      const ObjectId x = Intern(r.object);
      return Effect(r, x, K::kRegistered, "", {Of(x, K::kRunning), Of(x, K::kCreated)});
    }
    if (r.field == "providerID" && !r.to.empty()) {
      instance_of_.InsertOrAssign(r.to, r.object);
      const ObjectId x = Intern(r.object);
      return Effect(r, x, K::kProviderIdSet, r.to, {Of(x, K::kRegistered)});
    }
    if (r.field == "Ready" && r.to == "True") {
      const ObjectId x = Intern(r.object);
      return Effect(r, x, K::kNodeReady, "", {Of(x, K::kRegistered), Of(x, K::kProviderIdSet)});
    }
    if (r.field == "deleted" && r.to == "true") {
      const ObjectId x = Intern(r.object);
      return Effect(r, x, K::kNodeDeleted, "", {Of(x, K::kGone), Of(x, K::kDeleting)});
    }
  }

  void List(const TimelineRow& r) {
    const bool added = !r.to.empty();
    const std::string_view id = added ? r.to : r.from;
    const ObjectId x = Intern(InstanceOf(id));
    if (added) {
      Add(r.time, K::kListed, x, id, {Of(x, K::kRunning), Of(x, K::kCreated)});
      return;
    }
    Add(r.time, K::kUnlisted, x, id, {Of(x, K::kGone), Of(x, K::kDeleting)});
  }

  void NodeRef(const TimelineRow& r) {
    if (!r.to.empty()) {
      const ObjectId n = Intern(r.to);
      Add(r.time, K::kNodeRefAdded, n, "",
          {Of(n, K::kListed), Of(n, K::kProviderIdSet), Of(n, K::kRegistered)});
      return;
    }
    const ObjectId n = Intern(r.from);
    Add(r.time, K::kNodeRefRemoved, n, "",
        {Of(n, K::kNodeDeleted), Of(n, K::kUnlisted), Of(n, K::kGone)});
  }

  void FaultRow(const TimelineRow& r) {
    const ObjectId x = Intern(r.object);
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

  void Effect(const TimelineRow& r, ObjectId x, K kind, Change detail,
              std::initializer_list<std::optional<MomentId>> causes) {
    Add(r.time, kind, x, detail, causes);
  }

  // A moment of object x (whose name is the moment's name), after its causes.
  MomentId Add(Time t, K kind, ObjectId x, Change detail,
               std::initializer_list<std::optional<MomentId>> causes) {
    MomentId v = Add(t, kind, names_[x], detail);
    for (const std::optional<MomentId>& c : causes) {
      if (c) Link(*c, v);
    }
    objects_[x].latest[static_cast<size_t>(kind)] = static_cast<Object::Latest>(v + 1);
    return v;
  }

  // Every moment is linked to the start first: the start is its binding
  // cause until a later cause links in.
  MomentId Add(Time t, K kind, std::string_view object, Change detail) {
    g_->moments_.push_back(Moment{t, kind, object, detail.from, detail.to});
    g_->binding_.push_back(g_->start_);
    return g_->moments_.size() - 1;
  }

  void Link(MomentId from, MomentId to) {
    const std::vector<Moment>& m = g_->moments_;
    // Causes come first in the timeline: the graph is acyclic by construction.
    assert(from < to && m[from].time <= m[to].time);
    MomentId& best = g_->binding_[to];
    // The latest cause; on a tie in time, the one later in the timeline.
    if (m[from].time > m[best].time || (m[from].time == m[best].time && from > best)) best = from;
  }

  std::optional<MomentId> Of(ObjectId x, K kind) const {
    const MomentId v = objects_[x].latest[static_cast<size_t>(kind)];
    if (v == 0) return std::nullopt;
    return v - 1;
  }

  // What Row interns for r, where no lookup is needed to know it.
  static std::string_view KeyOf(const TimelineRow& r) {
    if (r.object_kind == "MachinePool" && r.field == "nodeRef") return r.to.empty() ? r.from : r.to;
    return r.object;
  }

  // The object's index in objects_, added on first sight.
  ObjectId Intern(std::string_view object) {
    const uint64_t h = Ids::Hash(object);
    auto it = ids_.find(object, h);
    if (it != ids_.end()) return it->second;
    const ObjectId x = objects_.size();
    ids_.InsertOrAssign(object, x, h);
    objects_.emplace_back();
    names_.push_back(object);
    return x;
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
    // 32 bits: a graph has at most one moment per timeline row, and 4 G rows
    // would not fit in memory; 64 made an Object three cache lines, not two,
    // and one was read per row (100,000 replicas: 260,000 objects).
    using Latest = uint32_t;
    std::array<Latest, kMomentKinds> latest{};  // 1 + its latest moment per kind; 0: none
    bool instance = false;                      // it has an instance state row
  };

  CausalGraph* g_;
  // Keys and values are views of the rows, as the moments' texts are. Flat:
  // a 100,000-replica run interns an object per few of its 600,000 rows, and
  // a node-based map's heap node per object was a cache miss more per row.
  using Ids = FlatViewMap<ObjectId>;
  Ids ids_;
  std::vector<Object> objects_;
  std::vector<std::string_view> names_;        // objects_[x]'s name, as first seen
  FlatViewMap<std::string_view> instance_of_;  // providerID -> instance
  std::optional<MomentId> kill_;               // the last instance.killed fault
  // The pool's last instance running, deleting and gone, whatever the instance.
  std::optional<MomentId> running_, deleting_, gone_;
  std::optional<MomentId> provisioning_;  // the pool entering phase Provisioning
};

namespace {

std::vector<const TimelineRow*> RowsOfPool(const TimelineRows& rows, const std::string& pool) {
  std::vector<const TimelineRow*> out;
  for (const TimelineRow& r : rows) {
    if (r.pool == pool) out.push_back(&r);
  }
  return out;
}

}  // namespace

CausalGraph::CausalGraph(const TimelineRows& rows, const std::string& pool, Time start, Time end)
    : CausalGraph(RowsOfPool(rows, pool), pool, start, end) {}

CausalGraph::CausalGraph(const std::vector<const TimelineRow*>& pool_rows, const std::string& pool,
                         Time start, Time end) {
  Builder b(this);
  b.Reserve(pool_rows.size());
  start_ = b.Start(start, pool);
  for (const TimelineRow* r : pool_rows) {
    if (r->time >= start && r->time <= end) b.Row(*r);
  }
  b.End(end);
}

std::vector<const Moment*> CausalGraph::FaultsBetween(Time from, Time to) const {
  std::vector<const Moment*> out;
  for (const Moment& m : moments_) {
    if (m.kind == MomentKind::kFault && m.time > from && m.time <= to) out.push_back(&m);
  }
  return out;
}

}  // namespace mpsim
