// CAPA's AWSMachine controller (controllers/awsmachine_controller.go,
// docs/reference/providers.md §1.6.2), for the AWSMachines the MachinePoolMachines gate
// makes: each is reconciled on its own events, its readiness read from its
// instance, and on deletion it terminates the instance and waits for it.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "api/reconciler.h"
#include "models/asg/auto_scaling_group.h"
#include "models/asg/aws_throttle.h"
#include "sim/recorder.h"

namespace mpsim::asg {

// The instance ID at the end of the AWSMachine's "aws:///<az>/<id>".
std::string_view InstanceIdOf(const InfraMachine& am);

class AwsMachineReconciler : public Reconciler {
 public:
  // `groups`: the Auto Scaling Group of each AWSMachinePool, by name; an
  // AWSMachine finds its instance through the pool that owns it.
  AwsMachineReconciler(Client* client, const Clock* clock, Recorder* rec,
                       std::map<std::string, AutoScalingGroup*> groups,
                       AwsThrottle* throttle = nullptr);
  // The AWSMachines (updates of status alone dropped) and the Machines that
  // reference them.
  void Setup(Builder* b) override;
  Status Reconcile(const Request& req, Result* result) override;

 private:
  Status ReconcileNormal(const InfraMachine& am, const Instance* inst, const std::string& pool,
                         Result* result);
  Status ReconcileDelete(const InfraMachine& am, const Instance* inst, AutoScalingGroup* asg,
                         const std::string& pool, Result* result);
  Status RemoveFinalizer(const InfraMachine& am);

  Client* client_;
  const Clock* clock_;
  Recorder* rec_;
  std::map<std::string, AutoScalingGroup*> groups_;
  AwsThrottle* throttle_;
};

}  // namespace mpsim::asg
