// The deleteMachine event: one MachinePool Machine of a pool deleted in the
// management API server, as MachineHealthCheck remediation would.
#pragma once

#include <string>

#include "scenario/scenario.pb.h"
#include "sim/api_server.h"
#include "sim/recorder.h"

namespace mpsim {

// Deletes the Machine `e.machine()` of pool `e.pool()` in namespace `ns`, or
// else the `e.index()`-th of the pool's Machines not already being deleted,
// in name order. Returns its name; "" and a `deleteMachine.notFound` fault
// row when there is no such Machine.
std::string DeletePoolMachine(ApiServer* mgmt, Recorder* rec, Time now, const std::string& ns,
                              const proto::Event::DeleteMachine& e);

// Why a pool cannot take deleteMachine events: its provider makes no
// MachinePool Machines. The message for spec.events[index].
std::string NoMachinesError(int index, const std::string& pool, const std::string& provider);

}  // namespace mpsim
