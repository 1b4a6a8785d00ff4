"""QQ plots of `mpsim calibrate --plot`: for each fitted delay, the observed
quantiles against each fitted family's, one PNG per delay.
Usage: qq_plot.py DATA.json (written by app/calibrate/qq_plot.cc)."""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def plot(delay):
    fig, ax = plt.subplots(figsize=(5, 5))
    observed = delay["observed"]
    top = max(observed)
    for fam in delay["families"]:
        label = "%s (KS %.3f)%s" % (fam["family"], fam["ks"], ", best" if fam["chosen"] else "")
        ax.plot(fam["quantiles"], observed, ".", markersize=3, label=label)
        top = max(top, max(fam["quantiles"]))
    ax.plot([0, top], [0, top], "k--", linewidth=0.8)
    ax.set_xlabel("fitted quantile (s)")
    ax.set_ylabel("observed quantile (s)")
    ax.set_title("%s (n=%d)\n%s" % (delay["key"], len(observed), delay["what"]), fontsize=10)
    ax.legend()
    fig.tight_layout()
    # Written under a temporary name and renamed, as every mpsim output.
    tmp = os.path.join(os.path.dirname(delay["png"]) or ".",
                       ".%s.tmp-%d.png" % (os.path.basename(delay["png"]), os.getpid()))
    fig.savefig(tmp, dpi=100)
    plt.close(fig)
    os.replace(tmp, delay["png"])


def main():
    with open(sys.argv[1]) as f:
        for delay in json.load(f):
            plot(delay)


if __name__ == "__main__":
    main()
