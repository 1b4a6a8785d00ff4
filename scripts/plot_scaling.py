"""Plots CPU time and max RSS against replicas per provider (log-log) with
the fitted exponent of time ~ replicas^k. Usage: plot_scaling.py CSV PNG"""
import csv
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def fit_exponent(xs, ys):
    lx = [math.log(x) for x in xs]
    ly = [math.log(max(y, 1e-3)) for y in ys]
    n = len(lx)
    mx, my = sum(lx) / n, sum(ly) / n
    sxx = sum((x - mx) ** 2 for x in lx)
    return sum((x - mx) * (y - my) for x, y in zip(lx, ly)) / sxx if sxx else float("nan")


def main(src, dst):
    rows = {}
    with open(src) as f:
        for r in csv.DictReader(f):
            rows.setdefault(r["provider"], []).append(r)
    fig, (wall, rss) = plt.subplots(1, 2, figsize=(10, 4))
    for provider, rs in sorted(rows.items()):
        xs = [int(r["replicas"]) for r in rs]
        walls = [float(r["cpu_s"]) for r in rs]
        mems = [int(r["max_rss_kb"]) / 1024 for r in rs]
        k = fit_exponent(xs, walls)
        wall.loglog(xs, walls, "o-", label=f"{provider} (~N^{k:.2f})")
        rss.loglog(xs, mems, "o-", label=provider)
    wall.set(xlabel="replicas (scale-up from 0)", ylabel="CPU time (s)", title="Run time (user + system)")
    rss.set(xlabel="replicas (scale-up from 0)", ylabel="max RSS (MiB)", title="Memory")
    for ax in (wall, rss):
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    fig.tight_layout()
    fig.savefig(dst, dpi=80)
    print(f"wrote {dst}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
