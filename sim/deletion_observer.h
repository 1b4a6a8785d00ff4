// Timeline rows for a Cluster's deletion, as an omniscient observer (no
// lag): the Cluster's phase and its removal, and the deletion of the pools'
// bootstrap configs, infrastructure pools and bootstrap data secrets, which
// have no rows of their own otherwise. MachinePool and Machine rows come
// from the PoolObserver.
#pragma once

#include <set>
#include <string>

#include "sim/api_server.h"
#include "sim/recorder.h"

namespace mpsim {

class DeletionObserver {
 public:
  // Rows name `pools` as their pool when the object is named after one.
  DeletionObserver(ApiServer* mgmt, Recorder* rec, std::set<std::string> pools);
  DeletionObserver(const DeletionObserver&) = delete;
  DeletionObserver& operator=(const DeletionObserver&) = delete;

 private:
  // Rows `<kind>,<name>,deleting,false,true` when the deletionTimestamp
  // appears and `<kind>,<name>,deleted,false,true` when the object goes.
  template <class T>
  void WatchDeletions(const char* kind);
  std::string PoolOf(const std::string& name) const;

  ApiServer* mgmt_;
  Recorder* rec_;
  std::set<std::string> pools_;
};

}  // namespace mpsim
