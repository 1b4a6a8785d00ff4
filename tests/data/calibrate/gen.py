"""Writes the fixtures of `mpsim calibrate` and `mpsim import` (README.md here)
from a fixed seed: run it from anywhere, it writes beside itself.
Every delay is drawn from a lognormal of known median and p99, so that the
tests can compare the fits with the truth; a cluster's defects (instances
without a Node, Nodes never Ready, clock skew) are listed per cluster below."""
import datetime
import json
import math
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
T0 = datetime.datetime(2026, 3, 1, 10, 0, 0, tzinfo=datetime.timezone.utc)
Z99 = 2.3263478740408408  # the standard normal's 0.99 quantile

# The truth of the lognormal cluster; tests/app/calibrate/ asserts against it.
TRUTH = {"registration": (40.0, 120.0), "ready": (15.0, 40.0), "ccm": (5.0, 15.0)}


def lognormal(rng, median, p99):
    return math.exp(math.log(median) + (math.log(p99 / median) / Z99) * rng.gauss(0, 1))


def at(seconds):
    return T0 + datetime.timedelta(seconds=seconds)


def k8s_time(seconds):
    """metav1.Time: RFC 3339 in UTC, whole seconds (the fraction is truncated)."""
    return at(math.floor(seconds)).strftime("%Y-%m-%dT%H:%M:%SZ")


def aws_time(seconds):
    """The AWS CLI's LaunchTime: whole seconds, +00:00."""
    return at(math.floor(seconds)).strftime("%Y-%m-%dT%H:%M:%S+00:00")


def azure_time(seconds):
    """ARM's timeCreated: seven fractional digits, +00:00."""
    t = at(seconds)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%07d" % (t.microsecond * 10) + "+00:00"


def gcp_time(seconds):
    """Compute Engine's creationTimestamp: milliseconds, in Pacific time (-08:00 in March 1)."""
    t = at(seconds).astimezone(datetime.timezone(datetime.timedelta(hours=-8)))
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03d" % (t.microsecond // 1000) + "-08:00"


def managed_entry(manager, seconds, fields, subresource=None):
    e = {"apiVersion": "v1", "fieldsType": "FieldsV1", "fieldsV1": fields, "manager": manager,
         "operation": "Update", "time": k8s_time(seconds)}
    if subresource:
        e["subresource"] = subresource
    return e


def node(name, created, provider_id, ready, pid_manager, pid_time, version, zone, lean=False):
    """A Node as `kubectl get nodes -o json --show-managed-fields` prints it; `lean`
    leaves out the conditions other than Ready, to keep the large cluster small."""
    kubelet_fields = {"f:metadata": {"f:labels": {".": {}, "f:kubernetes.io/hostname": {}}}}
    managed = [managed_entry("kubelet", created, kubelet_fields)]
    if provider_id and pid_manager == "kubelet":
        kubelet_fields["f:spec"] = {"f:providerID": {}}
    elif provider_id:
        managed.append(managed_entry(pid_manager, pid_time, {
            "f:metadata": {"f:labels": {"f:topology.kubernetes.io/zone": {}}},
            "f:spec": {"f:providerID": {}, "f:taints": {}}}))
    conditions = [] if lean else [{
        "lastHeartbeatTime": k8s_time(created + 900), "lastTransitionTime": k8s_time(created),
        "message": "kubelet has sufficient memory available",
        "reason": "KubeletHasSufficientMemory", "status": "False", "type": "MemoryPressure"}]
    if ready is None:
        conditions.append({"lastHeartbeatTime": k8s_time(created + 900), "lastTransitionTime":
                           k8s_time(created), "message": "container runtime network not ready",
                           "reason": "KubeletNotReady", "status": "False", "type": "Ready"})
    else:
        conditions.append({"lastHeartbeatTime": k8s_time(ready + 900), "lastTransitionTime":
                           k8s_time(ready), "message": "kubelet is posting ready status",
                           "reason": "KubeletReady", "status": "True", "type": "Ready"})
        managed.append(managed_entry("kubelet", ready, {"f:status": {"f:conditions": {}}},
                                     "status"))
    n = {"apiVersion": "v1", "kind": "Node",
         "metadata": {"creationTimestamp": k8s_time(created),
                      "labels": {"kubernetes.io/hostname": name,
                                 "topology.kubernetes.io/zone": zone},
                      "managedFields": managed, "name": name,
                      "resourceVersion": str(1000 + int(created)),
                      "uid": "00000000-0000-4000-8000-%012d" % (int(created * 1000) % 10**12)},
         "spec": {},
         "status": {"conditions": conditions, "nodeInfo": {"kubeletVersion": version}}}
    if provider_id:
        n["spec"]["providerID"] = provider_id
    return n


def k8s_list(items):
    return {"apiVersion": "v1", "items": items, "kind": "List", "metadata": {"resourceVersion": ""}}


def machine_pool(ns, name, replicas, version, kind, api, provider_ids):
    return {"apiVersion": "cluster.x-k8s.io/v1beta1", "kind": "MachinePool",
            "metadata": {"creationTimestamp": k8s_time(-600), "name": name, "namespace": ns},
            "spec": {"clusterName": "prod", "providerIDList": provider_ids, "replicas": replicas,
                     "template": {"spec": {
                         "bootstrap": {"configRef": {
                             "apiVersion": "bootstrap.cluster.x-k8s.io/v1beta1",
                             "kind": "KubeadmConfig", "name": name}},
                         "clusterName": "prod",
                         "infrastructureRef": {"apiVersion": api, "kind": kind, "name": name},
                         "version": version}}},
            "status": {"phase": "Running", "replicas": replicas, "readyReplicas": replicas}}


def machine(rng, launch, delays, defects, i):
    """One machine's times from its launch; `defects` maps an index to what is wrong with it."""
    reg, ready, ccm = (lognormal(rng, *delays[k]) for k in ("registration", "ready", "ccm"))
    created = launch + reg
    what = defects.get(i)
    if what == "skew":
        created = launch - 5  # the Node's clock is behind the cloud's
    return {"launch": launch, "created": created, "what": what,
            "ready": None if what == "never-ready" else created + ready, "ccm": created + ccm}


def write(path, doc):
    """Indented as the tools print, except the large lognormal cluster's, kept compact."""
    full = os.path.join(HERE, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        if path.startswith("lognormal/"):
            json.dump(doc, f, sort_keys=True, separators=(",", ":"))
        else:
            json.dump(doc, f, indent=2, sort_keys=True)
        f.write("\n")


def aws_cluster(rng, folder, count, delays, defects, pools):
    """`pools`: (name, kind, api, pid manager); machines are dealt round-robin to them."""
    reservations, nodes, ids = [], [], {p[0]: [] for p in pools}
    zones = ["us-east-1a", "us-east-1b", "us-east-1c"]
    for i in range(count):
        m = machine(rng, rng.uniform(0, 3600), delays, defects, i)
        pool = pools[i % len(pools)]
        zone, iid = zones[i % 3], "i-%017x" % rng.getrandbits(68)
        ip = "10.0.%d.%d" % (i // 200, i % 200 + 10)
        reservations.append({"Groups": [], "OwnerId": "123456789012",
                             "ReservationId": "r-%017x" % rng.getrandbits(68), "Instances": [{
                                 "AmiLaunchIndex": 0, "ImageId": "ami-0123456789abcdef0",
                                 "InstanceId": iid, "InstanceType": "m5.large",
                                 "LaunchTime": aws_time(m["launch"]),
                                 "Placement": {"AvailabilityZone": zone, "GroupName": "",
                                               "Tenancy": "default"},
                                 "PrivateDnsName": "ip-%s.ec2.internal" % ip.replace(".", "-"),
                                 "PrivateIpAddress": ip,
                                 "State": {"Code": 16, "Name": "running"},
                                 "Tags": [{"Key": "aws:autoscaling:groupName",
                                           "Value": pool[0]}]}]})
        pid = "aws:///%s/%s" % (zone, iid)
        if m["what"] == "no-node":
            continue
        ids[pool[0]].append(pid)
        nodes.append(node("ip-%s.ec2.internal" % ip.replace(".", "-"), m["created"], pid,
                          m["ready"], pool[3], m["ccm"], "v1.30.2", zone, lean=count > 100))
    write(folder + "/instances.json", {"Reservations": reservations})
    write(folder + "/nodes.json", k8s_list(nodes))
    write(folder + "/machinepools.json", k8s_list(
        [machine_pool("default", p[0], len(ids[p[0]]), "v1.30.2", p[1], p[2], ids[p[0]])
         for p in pools]))


def azure_cluster(rng, delays):
    defects = {3: "no-node", 7: "never-ready", 11: "skew"}
    sub = "11111111-2222-3333-4444-555555555555"
    sets = [("capz-pool0", "CAPZ-RG", "AzureMachinePool", "cloud-controller-manager"),
            ("aks-pool1-12345678-vmss", "MC_prod-rg_prod_eastus", "AzureManagedMachinePool",
             "kubelet")]
    vms, nodes, ids = [], [], {s[0]: [] for s in sets}
    for i in range(24):
        m = machine(rng, rng.uniform(0, 3600), delays, defects, i)
        vmss, rg, _, manager = sets[i % 2]
        zone, index = str(i % 3 + 1), i // 2
        vid = ("/subscriptions/%s/resourceGroups/%s/providers/Microsoft.Compute/"
               "virtualMachineScaleSets/%s/virtualMachines/%d" % (sub, rg, vmss, index))
        vms.append({"id": vid, "instanceId": str(index), "latestModelApplied": True,
                    "location": "eastus", "name": "%s_%d" % (vmss, index),
                    "osProfile": {"computerName": "%s%06d" % (vmss[:9], index)},
                    "provisioningState": "Succeeded", "resourceGroup": rg,
                    "sku": {"name": "Standard_D2s_v3", "tier": "Standard"},
                    "timeCreated": azure_time(m["launch"]),
                    "type": "Microsoft.Compute/virtualMachineScaleSets/virtualMachines",
                    "vmId": "%08x-0000-4000-8000-000000000000" % rng.getrandbits(32),
                    "zones": [zone]})
        # CAPZ and the cloud provider write the resource group lower-case.
        pid = "azure://" + vid.replace(rg, rg.lower())
        if m["what"] == "no-node":
            continue
        ids[vmss].append(pid)
        nodes.append(node("%s%06d" % (vmss[:9], index), m["created"], pid, m["ready"], manager,
                          m["ccm"], "v1.29.4", "eastus-" + zone))
    write("azure/instances.json", vms)
    write("azure/nodes.json", k8s_list(nodes))
    write("azure/machinepools.json", k8s_list(
        [machine_pool("capz", s[0].split("-vmss")[0], len(ids[s[0]]), "v1.29.4", s[2],
                      "infrastructure.cluster.x-k8s.io/v1beta1", ids[s[0]]) for s in sets]))


def gcp_cluster(rng, delays):
    defects = {2: "no-node", 5: "never-ready", 8: "never-ready", 13: "skew"}
    groups = [("mig-a", "GCPMachinePool", "gcp-cloud-controller-manager"),
              ("gke-prod-pool-b", "GCPManagedMachinePool", "kubelet")]
    instances, nodes, ids = [], [], {g[0]: [] for g in groups}
    for i in range(20):
        m = machine(rng, rng.uniform(0, 3600), delays, defects, i)
        group, _, manager = groups[i % 2]
        zone = ["us-central1-a", "us-central1-b"][(i // 2) % 2 if group == "mig-a" else 0]
        name = "%s-%04x" % (group, rng.getrandbits(16))
        base = "https://www.googleapis.com/compute/v1/projects/my-proj/zones/" + zone
        instances.append({"canIpForward": False, "cpuPlatform": "Intel Broadwell",
                          "creationTimestamp": gcp_time(m["launch"]),
                          "id": str(rng.getrandbits(62)), "kind": "compute#instance",
                          "machineType": base + "/machineTypes/e2-standard-4", "name": name,
                          "selfLink": base + "/instances/" + name, "status": "RUNNING",
                          "zone": base})
        pid = "gce://my-proj/%s/%s" % (zone, name)
        if m["what"] == "no-node":
            continue
        ids[group].append(pid)
        nodes.append(node(name, m["created"], pid, m["ready"], manager, m["ccm"], "v1.30.1",
                          zone))
    write("gcp/instances.json", instances)
    write("gcp/nodes.json", k8s_list(nodes))
    write("gcp/machinepools.json", k8s_list(
        [machine_pool("gcp", g[0], len(ids[g[0]]), "v1.30.1", g[1],
                      "infrastructure.cluster.x-k8s.io/v1beta1", ids[g[0]]) for g in groups]))


# Every infrastructure kind mpsim models: (kind, API group version, providerIDs).
EVERY_KIND = [
    ("AWSMachinePool", "infrastructure.cluster.x-k8s.io/v1beta2",
     ["aws:///us-west-2a/i-0a1b2c3d4e5f60001", "aws:///us-west-2b/i-0a1b2c3d4e5f60002"]),
    ("AWSManagedMachinePool", "infrastructure.cluster.x-k8s.io/v1beta2",
     ["aws:///us-west-2c/i-0a1b2c3d4e5f60003"]),
    ("ROSAMachinePool", "infrastructure.cluster.x-k8s.io/v1beta2",
     ["aws:///us-west-2a/i-0a1b2c3d4e5f60004"]),
    ("AzureMachinePool", "infrastructure.cluster.x-k8s.io/v1beta1",
     ["azure:///subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/"
      "virtualMachineScaleSets/vmss0/virtualMachines/0"]),
    ("AzureManagedMachinePool", "infrastructure.cluster.x-k8s.io/v1beta1",
     ["azure:///subscriptions/s/resourceGroups/mc_rg/providers/Microsoft.Compute/"
      "virtualMachineScaleSets/aks-pool1-1-vmss/virtualMachines/0"]),
    ("AzureASOManagedMachinePool", "infrastructure.cluster.x-k8s.io/v1alpha1",
     ["azure:///subscriptions/s/resourceGroups/mc_rg/providers/Microsoft.Compute/"
      "virtualMachineScaleSets/aks-pool2-2-vmss/virtualMachines/0"]),
    ("GCPMachinePool", "infrastructure.cluster.x-k8s.io/v1beta1",
     ["gce://proj/europe-west1-b/mig-0-x1", "gce://proj/europe-west1-c/mig-0-x2"]),
    ("GCPManagedMachinePool", "infrastructure.cluster.x-k8s.io/v1beta1",
     ["gce://proj/europe-west1-b/gke-pool-x3"]),
    ("OCIMachinePool", "infrastructure.cluster.x-k8s.io/v1beta2",
     ["oci://ocid1.instance.oc1.phx.aaaa0001"]),
    ("OCIManagedMachinePool", "infrastructure.cluster.x-k8s.io/v1beta2",
     ["ocid1.instance.oc1.phx.aaaa0002"]),
    ("ScalewayManagedMachinePool", "infrastructure.cluster.x-k8s.io/v1alpha1",
     ["scaleway://instance/fr-par-2/11111111-2222-3333-4444-000000000001"]),
]


def every_kind():
    pools = [machine_pool("kinds", "pool-%s" % kind.lower(), len(ids), "v1.31.0", kind, api, ids)
             for kind, api, ids in EVERY_KIND]
    write("every-kind/machinepools.json", k8s_list(pools))


def main():
    rng = random.Random(53)
    truth = {"registration": TRUTH["registration"], "ready": TRUTH["ready"], "ccm": TRUTH["ccm"]}
    aws_cluster(rng, "lognormal", 1000, truth, {},
                [("workers-a", "AWSMachinePool", "infrastructure.cluster.x-k8s.io/v1beta2",
                  "aws-cloud-controller-manager"),
                 ("workers-b", "AWSMachinePool", "infrastructure.cluster.x-k8s.io/v1beta2",
                  "aws-cloud-controller-manager")])
    aws_cluster(rng, "aws", 30, truth, {4: "no-node", 9: "no-node", 12: "never-ready",
                                         17: "never-ready", 21: "never-ready", 25: "skew"},
                [("workers", "AWSMachinePool", "infrastructure.cluster.x-k8s.io/v1beta2",
                  "aws-cloud-controller-manager"),
                 ("managed", "AWSManagedMachinePool", "infrastructure.cluster.x-k8s.io/v1beta2",
                  "kubelet")])
    azure_cluster(rng, truth)
    gcp_cluster(rng, truth)
    every_kind()


if __name__ == "__main__":
    main()
