"""PNG figures in the paper's style: one line per engine against the experiment's x axis."""

import textwrap

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402

import tables  # noqa: E402

STYLE = {
    "p2p": ("tab:blue", "o"),
    "alltoallv": ("tab:gray", "v"),
    "neighbor": ("tab:brown", "^"),
    "butterfly": ("tab:orange", "s"),
    "rma": ("tab:green", "D"),
    "adaptive": ("tab:red", "*"),
    "adaptive-warm": ("tab:pink", "P"),
    "p2p-warm": ("tab:cyan", "o"),
    "choice-warm": ("tab:olive", "X"),
}


def _panel(axes, configs_, title, x_label, value, y_label, engines):
    for engine in engines:
        points = [(c.x, value(c, engine)) for c in configs_ if engine in c.records]
        points = [(x, y) for x, y in points if y is not None]
        if not points:
            continue
        color, marker = STYLE.get(engine, ("black", "x"))
        axes.plot(*zip(*points), label=engine, color=color, marker=marker)
    axes.set_xscale("log", base=2)
    axes.set_yscale("log")
    xs = sorted({c.x for c in configs_})
    axes.set_xticks(xs, [str(x) for x in xs])
    axes.minorticks_off()
    axes.set_xlabel(x_label)
    axes.set_ylabel(y_label)
    axes.set_title("\n".join(textwrap.wrap(title, 64)), fontsize=9)
    axes.grid(True, which="major", alpha=0.3)
    axes.legend(fontsize=8)


def _exchange_us(config, engine):
    seconds = config.time(engine)
    return None if seconds is None else seconds * 1e6


def _init_ms(config, engine):
    seconds = config.init_time(engine)
    return None if seconds is None else seconds * 1e3


def figure(path, configs_, experiment, setup=False):
    """Writes one figure with a panel per panel name of the configurations."""
    panels = list(dict.fromkeys(c.panel for c in configs_))
    columns = min(len(panels), 2)
    rows = -(-len(panels) // columns)
    fig, grid = plt.subplots(rows, columns, figsize=(5.5 * columns, 3.8 * rows), squeeze=False)
    value, y_label = (_init_ms, "initialization (ms)") if setup else (_exchange_us, "exchange (us)")
    engines = [e for e in tables.engines_in(configs_)
               if e != tables.BASELINE
               and (setup or e not in (tables.ADAPTIVE_WARM, *tables.WARM_REFERENCES))]
    for k, panel in enumerate(panels):
        title = f"{experiment.figure}: {experiment.title}" + (f"\n{panel}" if panel else "")
        _panel(grid[k // columns][k % columns], [c for c in configs_ if c.panel == panel],
               title, experiment.x_label, value, y_label, engines)
    for k in range(len(panels), rows * columns):
        grid[k // columns][k % columns].set_visible(False)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
