#!/usr/bin/env python3
"""Plots metrics of one or more sweeps against a swept parameter.

    scripts/plot_sweep.py OUT.png PARAM METRIC[,METRIC] LABEL=DIR [LABEL=DIR ...] [--logx]

Each DIR holds a finished sweep (sweep.json); each metric gets one panel with
one line per DIR: the mean over seeds at each point, and its 95% confidence
interval as a band. docs/capacity-planning.md shows the commands.
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def series(directory, param, metric):
    with open(f"{directory}/sweep.json") as f:
        sweep = json.load(f)
    rows = []
    for point in sweep["points"]:
        stats = point["metrics"].get(metric, {})
        if stats.get("n", 0) == 0:
            continue
        x = float(point["parameters"][param].rstrip("s"))
        low = stats["ci95_low"] if stats["ci95_low"] is not None else stats["mean"]
        high = stats["ci95_high"] if stats["ci95_high"] is not None else stats["mean"]
        rows.append((x, stats["mean"], low, high))
    rows.sort()
    return [list(col) for col in zip(*rows)] if rows else [[], [], [], []]


def main(argv):
    logx = "--logx" in argv
    argv = [a for a in argv if a != "--logx"]
    if len(argv) < 4:
        sys.exit(__doc__)
    out, param, metrics, runs = argv[0], argv[1], argv[2].split(","), argv[3:]
    fig, axes = plt.subplots(1, len(metrics), figsize=(5.5 * len(metrics), 4), squeeze=False)
    for ax, metric in zip(axes[0], metrics):
        for run in runs:
            label, directory = run.split("=", 1)
            x, mean, low, high = series(directory, param, metric)
            ax.plot(x, mean, marker="o", label=label)
            ax.fill_between(x, low, high, alpha=0.2)
        ax.set_xlabel(param.split(".")[-1])
        ax.set_ylabel(metric)
        if logx:
            ax.set_xscale("log")
        ax.grid(True, alpha=0.3)
        ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=100)


if __name__ == "__main__":
    main(sys.argv[1:])
