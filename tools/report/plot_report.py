#!/usr/bin/env python3
"""Draws where each component's time goes, as stacked bars, from `ferry report --json`.

    ferry report --json RUN_DIR... | python3 plot_report.py OUT.png

`ferry report --png OUT.png` runs this script itself. One bar per component and rank
count; its parts are the percentages of the run time, and the label above it gives
the run time and, for components given at several rank counts, the efficiency.
"""

import json
import sys

# The parts of a run, bottom to top, as `ferry report --json` names them, and colours
# that keep the model's own work apart from what the coupler costs.
SHARES = [
    ("computation", "#9e9e9e"),
    ("communication", "#1f77b4"),
    ("waiting", "#d62728"),
    ("imbalance", "#e377c2"),
    ("copies", "#ff7f0e"),
    ("io", "#8c564b"),
    ("setup", "#2ca02c"),
    ("other", "#9467bd"),
]
# The exit status `ferry report` turns into its "matplotlib is missing" message.
NO_MATPLOTLIB = 3


def read_runs(stream):
    records = (json.loads(line) for line in stream if line.strip())
    return [r for r in records if r.get("report") == "component"]


def label_of(run):
    text = f"{run['run_s']:.3g} s"
    if "efficiency" in run:
        text += f"\neff {100 * run['efficiency']:.0f}%"
    return text


def plot(runs, out):
    import matplotlib

    matplotlib.use("Agg")  # no display needed
    import matplotlib.pyplot as plt

    names = [f"{r['component']}\n{r['ranks']} rank{'s' if r['ranks'] != 1 else ''}" for r in runs]
    positions = range(len(runs))
    fig, ax = plt.subplots(figsize=(max(4.0, 1.1 * len(runs) + 2.5), 4.5))
    bottoms = [0.0] * len(runs)
    for share, colour in SHARES:
        heights = [r[f"{share}_pct"] for r in runs]
        ax.bar(positions, heights, bottom=bottoms, color=colour, label=share, width=0.6)
        bottoms = [b + h for b, h in zip(bottoms, heights)]
    for x, (run, top) in enumerate(zip(runs, bottoms)):
        ax.text(x, top + 1, label_of(run), ha="center", va="bottom", fontsize=8)
    ax.set_xticks(list(positions))
    ax.set_xticklabels(names)
    ax.set_ylabel("% of run time (mean over ranks)")
    ax.set_ylim(0, 125)
    ax.set_title("Where the time goes")
    # Legend entries top to bottom, as the parts are stacked.
    handles, labels = ax.get_legend_handles_labels()
    ax.legend(handles[::-1], labels[::-1], loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=120)


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: plot_report.py OUT.png < (ferry report --json output)\n")
        return 2
    # Read everything first: the writer must never meet a closed pipe.
    runs = read_runs(sys.stdin)
    if not runs:
        sys.stderr.write("plot_report.py: no component records on the standard input\n")
        return 1
    try:
        import matplotlib  # noqa: F401  (only to tell a missing package from other errors)
    except ImportError:
        sys.stderr.write(f"plot_report.py: matplotlib is missing in {sys.executable}\n")
        return NO_MATPLOTLIB
    plot(runs, argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
