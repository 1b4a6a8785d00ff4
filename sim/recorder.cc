#include "sim/recorder.h"

#include <utility>

namespace mpsim {

void Recorder::Change(Time t, std::string kind, std::string object, std::string field,
                      std::string from, std::string to, std::string pool) {
  if (from == to) return;
  rows_.push_back({t, std::move(kind), std::move(object), std::move(field), std::move(from),
                   std::move(to), std::move(pool)});
}

void Recorder::Fault(Time t, const std::string& pool, const std::string& object,
                     const std::string& what) {
  ++faults_[pool];
  ++faults_by_kind_[what];
  rows_.push_back({t, "Fault", object, "fault", "", what, pool});
}

void Recorder::Reconcile(ReconcileSpan span) { reconciles_.push_back(std::move(span)); }

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
