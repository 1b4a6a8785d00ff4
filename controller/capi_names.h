// Label, annotation, finalizer, condition and phase names of the Cluster API
// v1beta2 types that the MachinePool controller reads and writes.
#pragma once

namespace mpsim::capi {

inline constexpr const char* kGroup = "cluster.x-k8s.io";
inline constexpr const char* kGroupVersion = "cluster.x-k8s.io/v1beta2";

// Labels and annotations (api/core/v1beta2/common_types.go).
inline constexpr const char* kClusterNameLabel = "cluster.x-k8s.io/cluster-name";
inline constexpr const char* kMachinePoolNameLabel = "cluster.x-k8s.io/pool-name";
inline constexpr const char* kPausedAnnotation = "cluster.x-k8s.io/paused";
inline constexpr const char* kReplicasManagedByAnnotation = "cluster.x-k8s.io/replicas-managed-by";
inline constexpr const char* kAutoscalerMinSizeAnnotation =
    "cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size";
inline constexpr const char* kAutoscalerMaxSizeAnnotation =
    "cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size";
inline constexpr const char* kClusterNameAnnotation = "cluster.x-k8s.io/cluster-name";
inline constexpr const char* kClusterNamespaceAnnotation = "cluster.x-k8s.io/cluster-namespace";
inline constexpr const char* kOwnerKindAnnotation = "cluster.x-k8s.io/owner-kind";
inline constexpr const char* kOwnerNameAnnotation = "cluster.x-k8s.io/owner-name";
inline constexpr const char* kMachinePoolFinalizer = "machinepool.cluster.x-k8s.io";
inline constexpr const char* kMachineFinalizer = "machine.cluster.x-k8s.io";
inline constexpr const char* kClusterFinalizer = "cluster.cluster.x-k8s.io";
inline constexpr const char* kMachineControlPlaneLabel = "cluster.x-k8s.io/control-plane";

// Taint set by the kubelet flags of CAPI bootstrap providers.
inline constexpr const char* kNodeUninitializedTaintKey = "node.cluster.x-k8s.io/uninitialized";
inline constexpr const char* kNoSchedule = "NoSchedule";

// v1beta2 conditions (metav1.Condition).
inline constexpr const char* kPausedCondition = "Paused";
inline constexpr const char* kPausedReason = "Paused";
inline constexpr const char* kNotPausedReason = "NotPaused";
inline constexpr const char* kControlPlaneInitializedCondition = "ControlPlaneInitialized";
inline constexpr const char* kMachineReadyCondition = "Ready";
inline constexpr const char* kMachineAvailableCondition = "Available";
inline constexpr const char* kMachineUpToDateCondition = "UpToDate";
inline constexpr const char* kMachineUpToDateReason = "UpToDate";
inline constexpr const char* kMachineNotUpToDateReason = "NotUpToDate";

// Machine v1beta2 conditions and reasons the Machine controller's status part
// sets (api/core/v1beta2/machine_types.go, condition_consts.go).
inline constexpr const char* kMachineBootstrapConfigReadyCondition = "BootstrapConfigReady";
inline constexpr const char* kMachineBootstrapDataSecretProvidedReason = "DataSecretProvided";
inline constexpr const char* kMachineInfrastructureReadyCondition = "InfrastructureReady";
inline constexpr const char* kMachineNodeReadyCondition = "NodeReady";
inline constexpr const char* kMachineNodeHealthyCondition = "NodeHealthy";
inline constexpr const char* kMachineDeletingCondition = "Deleting";
inline constexpr const char* kMachineUpdatingCondition = "Updating";
inline constexpr const char* kReadyReason = "Ready";
inline constexpr const char* kNotReadyReason = "NotReady";
inline constexpr const char* kReadyUnknownReason = "ReadyUnknown";
inline constexpr const char* kAvailableReason = "Available";
inline constexpr const char* kObjectDoesNotExistReason = "ObjectDoesNotExist";
inline constexpr const char* kObjectDeletedReason = "ObjectDeleted";
inline constexpr const char* kInspectionFailedReason = "InspectionFailed";
inline constexpr const char* kConnectionDownReason = "ConnectionDown";
inline constexpr const char* kMachineNodeReadyReason = "NodeReady";
inline constexpr const char* kMachineNodeNotReadyReason = "NodeNotReady";
inline constexpr const char* kMachineNodeReadyUnknownReason = "NodeReadyUnknown";
inline constexpr const char* kMachineNodeHealthyReason = "NodeHealthy";
inline constexpr const char* kMachineNodeNotHealthyReason = "NodeNotHealthy";
inline constexpr const char* kMachineNodeHealthUnknownReason = "NodeHealthyUnknown";
inline constexpr const char* kMachineNodeDoesNotExistReason = "NodeDoesNotExist";
inline constexpr const char* kMachineNodeDeletedReason = "NodeDeleted";
inline constexpr const char* kNotDeletingReason = "NotDeleting";
inline constexpr const char* kDeletingReason = "Deleting";
inline constexpr const char* kMachineNotUpdatingReason = "NotUpdating";
inline constexpr const char* kMachineWaitingForMinReadySecondsReason = "WaitingForMinReadySeconds";

// v1beta1 conditions under status.deprecated.v1beta1 (v1beta1_condition_consts.go).
inline constexpr const char* kReadyV1Beta1 = "Ready";
inline constexpr const char* kBootstrapReadyV1Beta1 = "BootstrapReady";
inline constexpr const char* kInfrastructureReadyV1Beta1 = "InfrastructureReady";
inline constexpr const char* kReplicasReadyV1Beta1 = "ReplicasReady";
inline constexpr const char* kWaitingForDataSecretReason = "WaitingForDataSecret";
inline constexpr const char* kWaitingForInfrastructureReason = "WaitingForInfrastructure";
inline constexpr const char* kIncorrectExternalRefReason = "IncorrectExternalRef";
inline constexpr const char* kWaitingForReplicasReadyReason = "WaitingForReplicasReady";
inline constexpr const char* kSeverityError = "Error";
inline constexpr const char* kSeverityWarning = "Warning";
inline constexpr const char* kSeverityInfo = "Info";

// Node condition types (core/v1 NodeConditionType).
inline constexpr const char* kNodeReady = "Ready";
inline constexpr const char* kNodeMemoryPressure = "MemoryPressure";
inline constexpr const char* kNodeDiskPressure = "DiskPressure";
inline constexpr const char* kNodePIDPressure = "PIDPressure";

// Cluster phases (cluster_phase_types.go); the simulated Cluster has no
// infrastructure or control plane reference, so it is Pending until deleted.
inline constexpr const char* kClusterPhasePending = "Pending";
inline constexpr const char* kClusterPhaseDeleting = "Deleting";

// MachinePool phases (MachinePoolPhase*).
inline constexpr const char* kPhasePending = "Pending";
inline constexpr const char* kPhaseProvisioning = "Provisioning";
inline constexpr const char* kPhaseProvisioned = "Provisioned";
inline constexpr const char* kPhaseRunning = "Running";
inline constexpr const char* kPhaseScalingUp = "ScalingUp";
inline constexpr const char* kPhaseScalingDown = "ScalingDown";
inline constexpr const char* kPhaseScaling = "Scaling";
inline constexpr const char* kPhaseDeleting = "Deleting";

// capierrors.InvalidConfigurationMachinePoolError.
inline constexpr const char* kInvalidConfigurationError = "InvalidConfiguration";

}  // namespace mpsim::capi
