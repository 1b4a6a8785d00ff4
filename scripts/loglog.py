"""What the scaling plots and the budget verdicts share: DESIGN.md's budget
for whole runs, the fitted exponent of a log-log line, and the finishing of
a figure of panels."""
import math

# Exponents are fitted from this size up: below it a run is mostly start-up.
FIT_FROM = 1000
# DESIGN.md's performance budget: (replicas, wall seconds) and (replicas, MiB).
WALL_BUDGET = [(10_000, 1.0), (100_000, 20.0)]
MEMORY_BUDGET = [(10_000, 1024.0)]


def fit_exponent(xs, ys):
    """Least-squares slope of log y against log x (nan with fewer than two x)."""
    lx = [math.log(x) for x in xs]
    ly = [math.log(max(y, 1e-3)) for y in ys]
    n = len(lx)
    if n < 2:
        return float("nan")
    mx, my = sum(lx) / n, sum(ly) / n
    sxx = sum((x - mx) ** 2 for x in lx)
    return sum((x - mx) * (y - my) for x, y in zip(lx, ly)) / sxx if sxx else float("nan")


def save(fig, axes, dst):
    """Grid and legend on each panel, then the figure to dst."""
    for ax in axes:
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    fig.tight_layout()
    fig.savefig(dst, dpi=80)
    print(f"wrote {dst}")
