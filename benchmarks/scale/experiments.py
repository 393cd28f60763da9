"""The experiments of the data-transfer paper's section 5, as runs of `ferry bench exchange`.

Each experiment is a list of points (one x value of a figure, one configuration of
scenario flags and rank counts). Simulated points follow the paper's sizes where the
simulator can afford them; real points fit the 2 to 8 ranks of a workstation.
"""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Point:
    """One configuration: `src` source ranks and `dst` destination ranks (0: one
    component rearranging its own data, `--groups shared`), and the scenario flags."""

    x: int
    src: int
    dst: int
    args: tuple
    panel: str = ""

    @property
    def ranks(self):
        return self.src + self.dst

    @property
    def groups(self):
        return "split" if self.dst > 0 else "shared"

    def bench_args(self):
        return ["--scenario", *self.args, "--groups", self.groups]


@dataclass(frozen=True)
class Experiment:
    key: str
    figure: str
    title: str
    x_label: str
    paper: str  # what the paper reports, for the comparison
    simulated: list
    real: list = field(default_factory=list)
    setup_plot: bool = False  # also plot setup times (the paper's Fig. 15)
    paper_speedup: dict = field(default_factory=dict)  # x -> the paper's P2P / adaptive


def _pairs(counts, args, panel=""):
    return [Point(n, n, n, tuple(args), panel) for n in counts]


def _toy_messages(procs, messages, fields=10):
    panel = f"{procs} + {procs} ranks"
    return [
        Point(m, procs, procs, ("toy", "--msgs-per-proc", str(m), "--fields", str(fields)), panel)
        for m in messages
    ]


def _toy_fields(procs, messages, fields):
    panel = f"{procs} + {procs} ranks, {messages} messages per process"
    return [
        Point(f, procs, procs, ("toy", "--msgs-per-proc", str(messages), "--fields", str(f)), panel)
        for f in fields
    ]


def _toy_procs(counts, messages=24):
    return [
        Point(p, p, p, ("toy", "--msgs-per-proc", str(min(p, messages)), "--fields", "10"))
        for p in counts
    ]


def experiments(quick):
    """The seven experiments; `quick` keeps a few points of each."""
    pick = (lambda full, few: few) if quick else (lambda full, few: full)
    return [
        Experiment(
            key="messages",
            figure="Fig. 16",
            title="Toy models: messages per process",
            x_label="messages per process",
            paper="P2P wins below about 12 messages per process, butterfly above; "
            "adaptive is best everywhere and 13.9x faster than P2P at 96.",
            simulated=_toy_messages(pick(24, 12), pick([1, 4, 12, 24], [1, 12]))
            + pick(_toy_messages(96, [12, 48, 96]) + _toy_messages(192, [1, 12, 24, 48, 96]),
                   []),
            real=_toy_messages(2, [1, 2]) + _toy_messages(4, [1, 2, 4]),
            paper_speedup={96: 13.9},
        ),
        Experiment(
            key="fields",
            figure="Fig. 17",
            title="Toy models: number of fields",
            x_label="fields",
            paper="With 12 messages per process butterfly loses to P2P and adaptive "
            "matches P2P; with 48, butterfly and adaptive win, adaptive most.",
            simulated=[
                p
                for messages in pick((4, 24), (4,))
                for p in _toy_fields(24, messages, pick([5, 40], [40]))
            ]
            + pick([p for messages in (12, 48) for p in _toy_fields(192, messages, [5, 40])], []),
        ),
        Experiment(
            key="procs",
            figure="Figs. 18 and 15",
            title="Toy models: process count (24 messages per process)",
            x_label="processes per model",
            paper="P2P slows slightly with more processes, butterfly and adaptive speed "
            "up slightly and win. Setup: butterfly a little above P2P, adaptive 2-3x "
            "P2P (profiling).",
            simulated=_toy_procs(pick([6, 12, 24, 48, 96, 192], [6])),
            setup_plot=True,
        ),
        Experiment(
            key="highres",
            figure="Fig. 19",
            title="Higher resolution: 96 grid points per process",
            x_label="processes per model",
            paper="All times grow from 64 to 1024 processes; butterfly and adaptive "
            "well ahead of P2P, adaptive best.",
            simulated=_pairs(
                pick([8, 16, 32, 64, 128, 256, 512, 1024], [8]),
                ("gamil", "--points-per-proc", "96", "--fields", "20"),
            ),
        ),
        Experiment(
            key="gamil",
            figure="Fig. 21",
            title="GAMIL2-CLM3: 14 fields on 128 x 60",
            x_label="processes per model",
            paper="Adaptive best throughout: 11.68x over P2P at 96 processes (32 "
            "messages per process), 3.48x at 192 (18 messages).",
            simulated=_pairs(pick([6, 12, 24, 48, 96, 192], [6]), ("gamil",)),
            real=_pairs([1, 2, 4], ("gamil",)),
            paper_speedup={96: 11.68, 192: 3.48},
        ),
        Experiment(
            key="cesm",
            figure="Fig. 20",
            title="CESM CLM4 -> CPL7: 32 fields on 144 x 96",
            x_label="processes per model",
            paper="Below 24 processes butterfly is far behind and adaptive matches "
            "P2P; above, adaptive wins, 4.01x over P2P at 192.",
            simulated=_pairs(pick([6, 12, 24, 48, 96, 192], [6]), ("cesm",)),
            paper_speedup={192: 4.01},
        ),
        Experiment(
            key="interp",
            figure="Fig. 22",
            title="Rearrangement for interpolation (atmosphere 144 x 96 to ocean 320 x 384)",
            x_label="processes",
            paper="Few messages (6.49 per process at 96): butterfly far behind P2P; "
            "adaptive equals P2P.",
            simulated=[Point(p, p, 0, ("interp",)) for p in pick([12, 24, 48, 96], [12])],
            real=[Point(p, p, 0, ("interp",)) for p in (2, 4, 8)],
        ),
    ]
