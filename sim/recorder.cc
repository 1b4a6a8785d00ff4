#include "sim/recorder.h"

#include <utility>

namespace mpsim {

void Recorder::Change(Time t, std::string kind, std::string object, std::string field,
                      std::string from, std::string to, std::string pool) {
  if (from == to) return;
  Append({t, std::move(kind), std::move(object), std::move(field), std::move(from), std::move(to),
          std::move(pool)});
}

void Recorder::Append(TimelineRow row) {
  rows_.push_back(std::move(row));
  const TimelineRow& r = rows_.back();
  if (!r.pool.empty()) rows_by_pool_[r.pool].push_back(&r);
}

void Recorder::Fault(Time t, const std::string& pool, const std::string& object,
                     const std::string& what) {
  ++faults_[pool];
  ++faults_by_kind_[what];
  Append({t, "Fault", object, "fault", "", what, pool});
}

void Recorder::Reconcile(ReconcileSpan span) {
  reconciles_by_object_[span.object].push_back(reconciles_.size());
  reconciles_.push_back(std::move(span));
}

void Recorder::ReconcileError(Time t, const std::string& pool, const std::string& controller,
                              const std::string& message) {
  ErrorTally& e = errors_[pool][controller];
  // Reconciles are reported as they end, which need not be in start order.
  if (e.count == 0 || t < e.first) e.first = t;
  if (e.count == 0 || t >= e.last) {
    e.last = t;
    e.message = message;
  }
  ++e.count;
}

}  // namespace mpsim
