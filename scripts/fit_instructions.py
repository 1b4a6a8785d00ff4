"""Reads scripts/bench-instructions' CSV and prints, per provider, how the
two parts of DESIGN.md's cost budget grow, in instructions:
  - the simulator (everything but the reconciles), per event, against log E:
    "cost grows no worse than O(E log E) in events";
  - the reconciles, per reconcile of the pool and per replica: "one reconcile
    of a pool with N instances costs O(N)".
With a PNG path, also plots both against size (log scales).
Usage: fit_instructions.py CSV [PNG]"""
import csv
import math
import sys

from loglog import fit_exponent, save

FIT_FROM = 1000  # below that a run is mostly start-up


def fit_rows(rows):
    """The rows a fit uses, by replicas: those from FIT_FROM up."""
    return sorted((r for r in rows if int(r["replicas"]) >= FIT_FROM), key=lambda r: int(r["replicas"]))


def report(provider, rows, axes, color=None):
    rows = fit_rows(rows)
    if len(rows) < 2:
        print(f"{provider}: fewer than two sizes from {FIT_FROM} replicas up; nothing to fit")
        return

    def col(name):
        return [int(r[name]) for r in rows]

    n, e, total = col("replicas"), col("events"), col("instructions")
    pool_r, infra_r = col("pool_reconciles"), col("infra_reconciles")
    rec, pool = col("reconcile_instructions"), col("pool_reconcile_instructions")
    rest = [t - c for t, c in zip(total, rec)]
    # Every reconcile of a scale-up to N sees at most N instances: reconciles
    # times N is the yardstick of the O(N)-per-reconcile bound.
    per_pool = [c / (r * x) for c, r, x in zip(pool, pool_r, n)]
    per_infra = [(c - q) / (r * x) if r else float("nan") for c, q, r, x in zip(rec, pool, infra_r, n)]
    per_event = [r / x for r, x in zip(rest, e)]
    print(f"{provider}: instructions per event (all but reconciles), per reconcile per replica")
    print(f"  {'replicas':>9} {'events':>9} {'instructions':>15} {'per event':>10} "
          f"{'MachinePool':>12} {'provider':>9} {'reconciles (MP, provider)':>26}")
    for i in range(len(rows)):
        print(f"  {n[i]:>9} {e[i]:>9} {total[i]:>15,} {per_event[i]:>10,.0f} "
              f"{per_pool[i]:>12,.0f} {per_infra[i]:>9,.0f} {pool_r[i]:>18} {infra_r[i]:>7}")
    e_log_e = [x * math.log(x) for x in e]
    print(f"  all instructions ~N^{fit_exponent(n, total):.3f}; events ~N^{fit_exponent(n, e):.3f}; "
          f"E log E ~N^{fit_exponent(n, e_log_e):.3f}")
    print(f"  all but reconciles ~E^{fit_exponent(e, rest):.3f}, "
          f"against E log E ~E^{fit_exponent(e, e_log_e):.3f} over these sizes")
    print(f"  per reconcile per replica: MachinePool ~N^{fit_exponent(n, per_pool):.3f}, "
          f"provider ~N^{fit_exponent(n, per_infra):.3f} (O(N) per reconcile: ~N^0)")
    print(f"  reconciles: MachinePool ~N^{fit_exponent(n, pool_r):.3f}, "
          f"provider ~N^{fit_exponent(n, infra_r):.3f}")
    if axes is not None:
        events_ax, pool_ax = axes
        events_ax.semilogx(e, per_event, "o-", color=color, label=provider)
        # What growth as log E would look like from this provider's first size.
        events_ax.semilogx(e, [per_event[0] * math.log(x) / math.log(e[0]) for x in e], ":",
                           color=color, alpha=0.6)
        pool_ax.loglog(n, per_pool, "o-", color=color, label=f"{provider}: MachinePool")
        pool_ax.loglog(n, per_infra, "s--", color=color, label=f"{provider}: provider")


def main(src, dst=None):
    by_provider = {}
    with open(src) as f:
        for r in csv.DictReader(f):
            by_provider.setdefault(r["provider"], []).append(r)
    axes = None
    fittable = any(len(fit_rows(rows)) >= 2 for rows in by_provider.values())
    if dst and not fittable:
        # A one-point plot would replace the last full one (docs/instructions.png).
        print(f"not plotting: no provider has two sizes from {FIT_FROM} replicas up; {dst} left as it was")
        dst = None
    if dst:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for i, (provider, rows) in enumerate(sorted(by_provider.items())):
        report(provider, rows, axes, color=f"C{i}")
    if dst:
        per_event, per_replica = axes
        per_event.set(xlabel="events (E)", ylabel="instructions per event",
                      title="All but reconciles (dotted: growth as log E)")
        per_replica.set(xlabel="replicas (N)", ylabel="instructions per reconcile per replica",
                        title="Reconciles (budget: flat, O(N) each)")
        per_event.set_ylim(0, per_event.get_ylim()[1] * 1.15)
        save(fig, axes, dst)


if __name__ == "__main__":
    main(*sys.argv[1:3])
