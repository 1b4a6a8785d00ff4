"""Plots wall time and max RSS against replicas per provider (log-log), with
the fitted exponents of wall and CPU time ~ replicas^k over the sizes from
1,000 up (below that a run is mostly start-up), DESIGN.md's budgets as
marks, and an E log E line through the slowest 1,000-replica run (events
grow about linearly with replicas). Usage: plot_scaling.py CSV PNG"""
import csv
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from loglog import FIT_FROM, MEMORY_BUDGET, WALL_BUDGET, fit_exponent, save  # noqa: E402


EVENTS_PER_REPLICA = 10  # about 8-12 in every provider's scale-up


def add_references(wall, rss, rows):
    """The budget marks, and E log E drawn through the slowest run at FIT_FROM."""
    wall.plot(*zip(*WALL_BUDGET), "rv", markersize=9, label="budget (DESIGN.md)")
    rss.plot(*zip(*MEMORY_BUDGET), "rv", markersize=9, label="budget (DESIGN.md)")
    at_from = [float(r["wall_s"]) for rs in rows.values() for r in rs if int(r["replicas"]) == FIT_FROM]
    sizes = sorted({int(r["replicas"]) for rs in rows.values() for r in rs if int(r["replicas"]) >= FIT_FROM})
    if not at_from or len(sizes) < 2:
        return

    def e_log_e(n):
        e = EVENTS_PER_REPLICA * n
        return e * math.log(e)

    scale = max(at_from) / e_log_e(FIT_FROM)
    wall.loglog(sizes, [scale * e_log_e(n) for n in sizes], "k:", label="E log E from 1,000")


def main(src, dst):
    rows = {}
    with open(src) as f:
        for r in csv.DictReader(f):
            rows.setdefault(r["provider"], []).append(r)
    fig, (wall, rss) = plt.subplots(1, 2, figsize=(10, 4))
    for provider, rs in sorted(rows.items()):
        xs = [int(r["replicas"]) for r in rs]
        walls = [float(r["wall_s"]) for r in rs]
        cpus = [float(r["cpu_s"]) for r in rs]
        mems = [int(r["max_rss_kb"]) / 1024 for r in rs]
        big = [i for i, x in enumerate(xs) if x >= FIT_FROM]
        k_wall = fit_exponent([xs[i] for i in big], [walls[i] for i in big])
        k_cpu = fit_exponent([xs[i] for i in big], [cpus[i] for i in big])
        wall.loglog(xs, walls, "o-", label=f"{provider} (wall ~N^{k_wall:.2f}, CPU ~N^{k_cpu:.2f})")
        print(f"{provider}: wall ~N^{k_wall:.2f}, CPU ~N^{k_cpu:.2f} (N >= {FIT_FROM})")
        rss.loglog(xs, mems, "o-", label=provider)
    add_references(wall, rss, rows)
    wall.set(xlabel="replicas (scale-up from 0)", ylabel="wall time (s)", title="Run time")
    rss.set(xlabel="replicas (scale-up from 0)", ylabel="max RSS (MiB)", title="Memory")
    save(fig, (wall, rss), dst)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
