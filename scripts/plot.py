"""Plots of one `mpsim run` result directory, written next to the results:
  replicas.png          desired/ready/available replicas over time per pool,
                        with the pool's phases as coloured bands
  matching-latency.png  node-to-providerID matching latency per pool:
                        histogram and CDF
  instances.png         per-instance lifecycle (launch -> running -> Node
                        registered -> Ready -> matched), first 300 instances
Usage: plot.py RESULT_DIR [--out DIR]   (reads timeline.csv and summary.json)
Needs matplotlib only (Debian: apt-get install python3-matplotlib)."""
import csv
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MAX_GANTT = 300
PHASE_COLORS = {
    "Pending": "#f2d7a6", "Provisioning": "#f6e3b4", "Provisioned": "#dbe9c4",
    "Running": "#c9e7c9", "ScalingUp": "#cfe0f3", "ScalingDown": "#e3d3ee",
    "Scaling": "#cfe0f3", "Deleting": "#f3c4c4", "Failed": "#e89a9a",
}
RUNNING = {"Running", "InService", "RUNNING", "Succeeded"}


def load(result_dir):
    with open(os.path.join(result_dir, "summary.json")) as f:
        summary = json.load(f)
    with open(os.path.join(result_dir, "timeline.csv")) as f:
        rows = list(csv.DictReader(f))
    return summary, rows


def x_end(summary, rows):
    """The end of the interesting part: the last state change (requeues aside)
    plus a margin, not the quiet tail up to the horizon."""
    last = max((float(r["time_s"]) for r in rows if r["object_kind"] != "Controller"),
               default=0.0)
    return min(summary["end_time_s"], last * 1.1 + 1.0)


def pool_rows(rows, pool):
    """MachinePool rows of `pool`, and every row of its instances, Nodes and list."""
    return [r for r in rows if r["object_kind"] == "MachinePool" and r["object"] == pool]


def step_series(rows, field, end):
    xs, ys, value = [0.0], [0.0], 0.0
    for r in rows:
        if r["field"] != field:
            continue
        xs.append(float(r["time_s"]))
        ys.append(value)
        value = float(r["to"]) if r["to"] else 0.0
        xs.append(float(r["time_s"]))
        ys.append(value)
    xs.append(end)
    ys.append(value)
    return xs, ys


def phase_bands(ax, pool, end):
    phases = pool.get("phase_transitions", [])
    for i, p in enumerate(phases):
        to = phases[i + 1]["time_s"] if i + 1 < len(phases) else end
        ax.axvspan(p["time_s"], to, color=PHASE_COLORS.get(p["phase"], "#eeeeee"), alpha=0.6,
                   lw=0, label=f"phase {p['phase']}")


def plot_replicas(summary, rows, out):
    pools = summary["pools"]
    end = x_end(summary, rows)
    fig, axes = plt.subplots(len(pools), 1, figsize=(9, 3.2 * len(pools)), squeeze=False)
    for ax, pool in zip(axes[:, 0], pools):
        mine = pool_rows(rows, pool["name"])
        phase_bands(ax, pool, end)
        for field, label, style in (("spec.replicas", "desired", "-"),
                                    ("readyReplicas", "ready", "--"),
                                    ("availableReplicas", "available", ":")):
            xs, ys = step_series(mine, field, end)
            ax.plot(xs, ys, style, lw=2, label=label)
        handles, labels = ax.get_legend_handles_labels()
        unique = dict(zip(labels, handles))
        ax.legend(unique.values(), unique.keys(), fontsize=7, loc="lower right")
        conv = pool.get("time_to_converge_s")
        title = f"pool {pool['name']} ({pool['provider']})"
        title += f": converged in {conv:.1f}s" if conv is not None else ": not converged"
        ax.set_title(title)
        ax.set_xlabel("simulated time (s)")
        ax.set_ylabel("replicas")
        ax.set_xlim(0, end)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "replicas.png"), dpi=100)
    plt.close(fig)


def matching_latencies(rows, pool):
    """Per node: nodeRef time minus the time its providerID entered the list."""
    listed, node_id, out, seen = {}, {}, [], set()
    for r in rows:
        if r.get("object_kind") == "InfraMachinePool" and r["object"] == pool and r["to"]:
            listed.setdefault(r["to"], float(r["time_s"]))
        elif r["object_kind"] == "Node" and r["field"] == "providerID" and r["to"]:
            node_id[r["object"]] = r["to"]
        elif (r["object_kind"] == "MachinePool" and r["object"] == pool
              and r["field"] == "nodeRef" and r["to"]):
            pid = node_id.get(r["to"])
            if pid in listed and pid not in seen:
                seen.add(pid)
                out.append(float(r["time_s"]) - listed[pid])
    return sorted(out)


def plot_latency(summary, rows, out):
    fig, (hist, cdf) = plt.subplots(1, 2, figsize=(10, 3.8))
    for pool in summary["pools"]:
        lat = matching_latencies(rows, pool["name"])
        if not lat:
            continue
        hist.hist(lat, bins=min(40, max(5, len(lat) // 5)), alpha=0.6, label=pool["name"])
        cdf.step([lat[0]] + lat, [0.0] + [(i + 1) / len(lat) for i in range(len(lat))],
                 where="post", label=pool["name"])
    hist.set_title("matching latency")
    hist.set_xlabel("providerID listed -> nodeRef (s)")
    hist.set_ylabel("nodes")
    cdf.set_title("matching latency CDF")
    cdf.set_xlabel("providerID listed -> nodeRef (s)")
    cdf.set_ylabel("fraction of nodes")
    cdf.set_ylim(0, 1.02)
    for ax in (hist, cdf):
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "matching-latency.png"), dpi=100)
    plt.close(fig)


def lifecycles(rows):
    """Per instance: (start, running, registered, ready, matched, gone) times."""
    life, order = {}, []
    for r in rows:
        kind, obj, t = r["object_kind"], r["object"], float(r["time_s"])
        if kind == "Instance" and r["field"] == "state":
            if obj not in life:
                life[obj] = {"start": t}
                order.append(obj)
            if r["to"] in RUNNING:
                life[obj].setdefault("running", t)
            elif r["to"] in ("Terminated", "TERMINATED", "Deleted"):
                life[obj]["gone"] = t
        elif kind == "Node" and obj in life:
            if r["field"] == "registered" and r["to"] == "true":
                life[obj].setdefault("registered", t)
            elif r["field"] == "Ready" and r["to"] == "True":
                life[obj].setdefault("ready", t)
        elif kind == "MachinePool" and r["field"] == "nodeRef" and r["to"] in life:
            life[r["to"]].setdefault("matched", t)
    return [(name, life[name]) for name in order[:MAX_GANTT]]


def plot_instances(summary, rows, out):
    lives = lifecycles(rows)
    if not lives:
        return
    end = x_end(summary, rows)
    stages = (("start", "running", "launching", "#f2b134"),
              ("running", "registered", "booting/registering", "#6fa8dc"),
              ("registered", "ready", "Node not Ready", "#b4a7d6"),
              ("ready", "gone", "Ready", "#93c47d"))
    fig, ax = plt.subplots(figsize=(10, max(2.5, 0.12 * len(lives) + 1.5)))
    for y, (name, life) in enumerate(lives):
        for a, b, label, color in stages:
            if a in life:
                stop = life.get(b, life.get("gone", end))
                ax.broken_barh([(life[a], max(stop - life[a], 0))], (y - 0.4, 0.8),
                               color=color, label=label if y == 0 else None)
        if "matched" in life:
            ax.plot([life["matched"]], [y], "k|", ms=6, label="nodeRef matched" if y == 0 else None)
    ax.set_yticks(range(len(lives)))
    ax.set_yticklabels([n for n, _ in lives] if len(lives) <= 40 else [""] * len(lives),
                       fontsize=6)
    ax.invert_yaxis()
    ax.set_xlim(0, end)
    ax.set_xlabel("simulated time (s)")
    ax.set_title(f"instance lifecycles (first {len(lives)})")
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "instances.png"), dpi=100)
    plt.close(fig)


def main(argv):
    if not argv or argv[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    result_dir = argv[0]
    out = argv[argv.index("--out") + 1] if "--out" in argv else result_dir
    summary, rows = load(result_dir)
    os.makedirs(out, exist_ok=True)
    plot_replicas(summary, rows, out)
    plot_latency(summary, rows, out)
    plot_instances(summary, rows, out)
    print(f"wrote {out}/{{replicas,matching-latency,instances}}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
