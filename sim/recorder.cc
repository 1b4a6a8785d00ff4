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

}  // namespace mpsim
