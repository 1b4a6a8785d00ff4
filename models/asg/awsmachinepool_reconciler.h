// CAPA's AWSMachinePool controller (exp/controllers/awsmachinepool_controller.go,
// docs/reference/providers.md §1.6.1) driving simulated Auto Scaling Groups: it creates the
// group, keeps its desired capacity and launch template in step with the
// MachinePool, and copies every instance into spec.providerIDList. A
// throttled AWS call fails the pass, as CAPA returns the error.
#pragma once

#include <map>
#include <string>

#include "api/reconciler.h"
#include "models/asg/auto_scaling_group.h"
#include "models/asg/aws_throttle.h"
#include "sim/recorder.h"

namespace mpsim::asg {

inline constexpr const char* kAwsMachinePoolKind = "AWSMachinePool";
inline constexpr const char* kAwsMachinePoolFinalizer =
    "awsmachinepool.infrastructure.cluster.x-k8s.io";
// With the MachinePoolMachines gate, one AWSMachine per instance (§1.6.2).
inline constexpr const char* kAwsMachineKind = "AWSMachine";
inline constexpr const char* kAwsMachineFinalizer = "awsmachine.infrastructure.cluster.x-k8s.io";

class AwsMachinePoolReconciler : public Reconciler {
 public:
  // `throttle` is the account's API buckets; nullptr: calls are never throttled.
  AwsMachinePoolReconciler(Client* client, const Clock* clock, Recorder* rec,
                           std::map<std::string, AutoScalingGroup*> groups,
                           AwsThrottle* throttle = nullptr);
  void Setup(Builder* b) override;
  Status Reconcile(const Request& req, Result* result) override;

 private:
  Status ReconcileNormal(const InfraMachinePool& imp, const MachinePool& mp, AutoScalingGroup* asg,
                         Result* result);
  Status ReconcileDelete(const InfraMachinePool& imp, AutoScalingGroup* asg, Result* result);
  Status ReconcileLaunchTemplate(const InfraMachinePool& imp, const MachinePool& mp,
                                 AutoScalingGroup* asg, Result* result);
  // canStartInstanceRefresh and cancelInstanceRefresh: sets the pass's
  // requeue while an unfinished refresh keeps a new one from starting.
  Status WaitForUnfinishedRefresh(const InfraMachinePool& imp, AutoScalingGroup* asg,
                                  Result* result);
  Status SyncReplicas(const InfraMachinePool& imp, const MachinePool& mp, AutoScalingGroup* asg);
  Status WriteStatus(const InfraMachinePool& imp, AutoScalingGroup* asg);
  Status WaitForDelete(const InfraMachinePool& imp, AutoScalingGroup* asg, Result* result);
  // The MachinePoolMachines gate's AWSMachines made and orphans let go
  // (awsmachine_sync.cc).
  Status SyncAwsMachines(const InfraMachinePool& imp, const MachinePool& mp, AutoScalingGroup* asg);
  Status DeleteOrphan(const InfraMachine& am);
  Status CreateAwsMachine(const InfraMachinePool& imp, const MachinePool& mp, const Instance& inst);
  // Counts the call and spends its token; the AWS error if it is throttled.
  Status Call(const InfraMachinePool& imp, const char* api);

  Client* client_;
  const Clock* clock_;
  Recorder* rec_;
  std::map<std::string, AutoScalingGroup*> groups_;  // by AWSMachinePool name
  AwsThrottle* throttle_;
  // What DescribeLaunchTemplateVersions shows CAPA of a pool's latest
  // launch template version (GetLaunchTemplate, SDKToLaunchTemplate).
  struct LaunchTemplateData {
    std::string image;           // its AMI, named by the Kubernetes version it was found for
    std::string user_data_hash;  // the hash of its decoded UserData
    std::string secret_key;      // its bootstrap-data-secret tag, "<namespace>/<name>"
  };
  std::map<std::string, LaunchTemplateData> launch_templates_;  // by pool
  // Pools whose DeleteASGAndWait is still inside its waiter, since when.
  std::map<std::string, Time> delete_waits_;
};

}  // namespace mpsim::asg
