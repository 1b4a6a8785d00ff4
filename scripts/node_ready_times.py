"""Time from request to Node Ready with every provider's defaults.

Runs a one-replica pool (created with replicas: 1, nothing else set) on each
provider over seeds 1..N and prints, per provider, the median and p90 of the
times from the request (the pool's creation) to the instance running (its
state row entering Running, InService, RUNNING or Succeeded) and to the Node
being Ready (its Ready row in timeline.csv), of time_to_converge_s with its
maximum, and how many seeds took longer than
five minutes to converge (a wait on a controller's resync). `gke-resize`
scales an existing GKE pool from 1 to 2 at 5 min instead, and measures from
there to the new Node's Ready row.
docs/defaults.md quotes its output against the published ranges.
Usage: node_ready_times.py MPSIM [--seeds N] [--providers asg,mig,...] [--set PATH=V]..."""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

# name -> the pool's provider block and whether the pool exists before the
# request (a scale from 1 to 2 at RESIZE_AT) or is created by it.
BLOCKS = {
    "asg": ("asg: {}", False),
    "mig": ("mig: {}", False),
    "gke": ("mig: {gke: true}", False),
    "gke-resize": ("mig: {gke: true}", True),
    "vmss": ("vmss: {}", False),
    "test": ("test: {}", False),
}
RESIZE_AT = 300.0
SLOW = 300.0

SCENARIO = """apiVersion: mpsim/v1
kind: Scenario
metadata:
  name: node-ready-{name}
spec:
  horizon: 30m
  machinePools:
    - name: mp-0
      replicas: 1
      provider:
        {block}
{events}"""
RESIZE = """  events:
    - at: %ds
      scale: {pool: mp-0, replicas: 2}
""" % RESIZE_AT


def percentile(values, q):
    """The q-quantile by the nearest rank, as mpsim's summaries take it."""
    s = sorted(values)
    rank = max(1, -(-len(s) * q // 1))
    return s[int(rank) - 1]


RUNNING = {"Running", "InService", "RUNNING", "Succeeded"}


def first_after(timeline, since, match):
    """Seconds from `since` to the first timeline row at or after it that `match`es."""
    with open(timeline) as f:
        for row in csv.DictReader(f):
            if match(row) and float(row["time_s"]) >= since:
                return float(row["time_s"]) - since
    return None


def node_ready(row):
    return row["object_kind"] == "Node" and row["field"] == "Ready" and row["to"] == "True"


def instance_running(row):
    return row["object_kind"] == "Instance" and row["field"] == "state" and row["to"] in RUNNING


def run_one(mpsim, scenario, seed, out, sets, since):
    cmd = [mpsim, "run", scenario, "--seed", str(seed), "--out", out, "--quiet"]
    for s in sets:
        cmd += ["--set", s]
    subprocess.run(cmd, check=True)
    with open(os.path.join(out, "summary.json")) as f:
        pool = json.load(f)["pools"][0]
    timeline = os.path.join(out, "timeline.csv")
    return (first_after(timeline, since, instance_running), first_after(timeline, since, node_ready),
            pool.get("time_to_converge_s"))


def measure(mpsim, name, seeds, tmp, sets):
    scenario = os.path.join(tmp, name + ".yaml")
    block, resize = BLOCKS[name]
    with open(scenario, "w") as f:
        f.write(SCENARIO.format(name=name, block=block, events=RESIZE if resize else ""))
    since = RESIZE_AT if resize else 0.0
    running, ready, converge = [], [], []
    for seed in range(1, seeds + 1):
        times = run_one(mpsim, scenario, seed, os.path.join(tmp, name, str(seed)), sets, since)
        for values, t in zip((running, ready, converge), times):
            values.append(t if t is not None else float("inf"))
    return running, ready, converge


def fmt(values):
    return "%6.1f %6.1f" % (percentile(values, 0.5), percentile(values, 0.9))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mpsim")
    ap.add_argument("--seeds", type=int, default=40)
    ap.add_argument("--providers", default="asg,mig,gke,gke-resize,vmss,test")
    ap.add_argument("--set", action="append", default=[], help="PATH=VALUE, as mpsim run --set")
    args = ap.parse_args()
    print("%-10s  %-13s  %-13s  %-13s  %-7s  %s" %
          ("provider", "running", "Node Ready", "converged", "", "converged"))
    print("%-10s  %-13s  %-13s  %-13s  %-7s  %s" %
          ("", "   p50    p90", "   p50    p90", "   p50    p90", "max", "after %ds" % SLOW))
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.providers.split(","):
            running, ready, converge = measure(args.mpsim, name, args.seeds, tmp, args.set)
            slow = sum(1 for c in converge if c > SLOW)
            print("%-10s  %s  %s  %s  %7.1f  %d/%d" % (name, fmt(running), fmt(ready), fmt(converge),
                                                      max(converge), slow, len(converge)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
