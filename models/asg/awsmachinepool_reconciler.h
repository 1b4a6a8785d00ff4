// CAPA's AWSMachinePool controller (exp/controllers/awsmachinepool_controller.go,
// providers.md §1.6.1) driving simulated Auto Scaling Groups: it creates the
// group, keeps its desired capacity and launch template in step with the
// MachinePool, and copies every instance into spec.providerIDList.
#pragma once

#include <map>
#include <string>

#include "api/reconciler.h"
#include "models/asg/auto_scaling_group.h"
#include "sim/recorder.h"

namespace mpsim::asg {

inline constexpr const char* kAwsMachinePoolKind = "AWSMachinePool";
inline constexpr const char* kAwsMachinePoolFinalizer =
    "awsmachinepool.infrastructure.cluster.x-k8s.io";

class AwsMachinePoolReconciler : public Reconciler {
 public:
  AwsMachinePoolReconciler(Client* client, const Clock* clock, Recorder* rec,
                           std::map<std::string, AutoScalingGroup*> groups);
  void Setup(Builder* b) override;
  Status Reconcile(const Request& req, Result* result) override;

 private:
  Status ReconcileNormal(const InfraMachinePool& imp, const MachinePool& mp, AutoScalingGroup* asg,
                         Result* result);
  Status ReconcileDelete(const InfraMachinePool& imp, AutoScalingGroup* asg, Result* result);
  Status SyncReplicas(const MachinePool& mp, AutoScalingGroup* asg);
  void SyncLaunchTemplate(const MachinePool& mp, AutoScalingGroup* asg);
  Status WriteStatus(const InfraMachinePool& imp, AutoScalingGroup* asg);
  void Call(const InfraMachinePool& imp, const char* api) const;

  Client* client_;
  const Clock* clock_;
  Recorder* rec_;
  std::map<std::string, AutoScalingGroup*> groups_;       // by AWSMachinePool name
  std::map<std::string, std::string> template_versions_;  // pool -> Kubernetes version of its LT
};

}  // namespace mpsim::asg
