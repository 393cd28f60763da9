"""Turning result records into rows: per configuration, every engine's time and the ratios."""

from dataclasses import dataclass, field

ADAPTIVE = "adaptive"
# The adaptive engine run again on the tuning cache its first run filled: no profiling.
ADAPTIVE_WARM = "adaptive-warm"
# Real runs only: p2p set up in the warm adaptive run's process, before adaptive and after
# a baseline exchange that paid the process's one-off costs; the reference for that run.
P2P_WARM = "p2p-warm"
# Real runs only: the engine adaptive chose, set up in that process just before adaptive.
CHOICE_WARM = "choice-warm"
WARM_REFERENCES = (P2P_WARM, CHOICE_WARM)
P2P = "p2p"
BASELINE = "baseline"
# Targets of the project: adaptive within this factor of the best single engine and of
# p2p; adaptive's initialization on a warm tuning cache within INIT_TOLERANCE of p2p's.
TOLERANCE = 1.05
INIT_TOLERANCE = 1.2


@dataclass
class Config:
    """One configuration's records, keyed by engine."""

    panel: str
    x: int
    records: dict = field(default_factory=dict)

    def time(self, engine):
        r = self.records.get(engine)
        return r["result"]["exchange_median_s"] if r and r["status"] == "ok" else None

    def best_single(self):
        """(engine, seconds) of the fastest engine other than adaptive and the baseline;
        none without a p2p result, the reference every comparison needs."""
        if self.time(P2P) is None:
            return None, None
        times = [(self.time(e), e) for e in self.records
                 if e not in (ADAPTIVE, ADAPTIVE_WARM, BASELINE, *WARM_REFERENCES)]
        times = [(t, e) for t, e in times if t is not None]
        if not times:
            return None, None
        t, e = min(times)
        return e, t

    def plan_messages(self):
        """Messages per sending rank of the plan itself (what p2p sends): mean and max."""
        r = self.records.get(P2P)
        if not r or r["status"] != "ok":
            return None
        return r["result"]["msgs_per_rank_mean"], r["result"]["msgs_per_rank_max"]

    def init_time(self, engine):
        """Setup plus the exchanges spent profiling (adaptive only), in seconds."""
        r = self.records.get(engine)
        if not r or r["status"] != "ok":
            return None
        return r["result"]["setup_s"] + r["result"].get("profiling_s", 0.0)

    def warm_init_ratio(self):
        """Adaptive's initialization on a warm cache over p2p's: p2p of the same process
        where the warm run has one (real runs), else p2p's own run (simulations)."""
        reference = self.init_time(P2P_WARM if P2P_WARM in self.records else P2P)
        return ratio(self.init_time(ADAPTIVE_WARM), reference)

    def warm_choice_ratio(self):
        """Adaptive's initialization on a warm cache over the setup of the engine it
        chose: what the cache lookup adds. The chosen engine is set up in the same
        process where the warm run has it (real runs), else taken from its own run.
        None when the choice is a butterfly stage mask, which has no run of its own."""
        r = self.records.get(ADAPTIVE_WARM)
        if not r or r["status"] != "ok":
            return None
        reference = CHOICE_WARM if CHOICE_WARM in self.records \
            else r["result"].get("adaptive_choice")
        return ratio(self.init_time(ADAPTIVE_WARM), self.init_time(reference))

    def wall_s(self):
        """Wall time of the runs behind this configuration (one run may give every engine)."""
        runs = {r.get("command"): r.get("wall_s", 0) for r in self.records.values()}
        return sum(runs.values())


def configs(records):
    """Group records by (panel, x): panels in the order of their first record, x
    ascending within a panel (a later run may add points to a panel); a record is
    keyed by the run's label, or by its engine in a run of every engine."""
    grouped = {}
    panels = {}
    for r in records:
        engine = r["result"]["engine"] if r["requested"] == "all" and r["status"] == "ok" \
            else r["requested"]
        panels.setdefault(r["panel"], len(panels))
        c = grouped.setdefault((r["panel"], r["x"]), Config(r["panel"], r["x"]))
        c.records[engine] = r
    return sorted(grouped.values(), key=lambda c: (panels[c.panel], c.x))


def engines_in(configs_):
    order = [BASELINE, P2P, "alltoallv", "neighbor", "butterfly", "rma", ADAPTIVE, ADAPTIVE_WARM,
             P2P_WARM, CHOICE_WARM]
    seen = {e for c in configs_ for e in c.records}
    return [e for e in order if e in seen] + sorted(seen - set(order))


def ratio(a, b):
    return a / b if a is not None and b else None


def us(seconds):
    return "-" if seconds is None else f"{seconds * 1e6:.1f}"


def times_x(value):
    return "-" if value is None else f"{value:.2f}x"


def cell(config, engine):
    r = config.records.get(engine)
    if r is None:
        return "-"
    if r["status"] == "skipped":
        return "not run"
    if r["status"] == "failed":
        return "failed"
    return us(r["result"]["exchange_median_s"])


def markdown(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(v) for v in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def summary_table(configs_, x_label):
    """Per configuration: each engine's median exchange time and how adaptive fares."""
    engines = [e for e in engines_in(configs_) if e not in (ADAPTIVE_WARM, *WARM_REFERENCES)]
    header = [x_label, "msgs/proc (mean, max)"] + [f"{e} (us)" for e in engines]
    header += ["adaptive chose", "best single", "adaptive / best", "p2p / adaptive",
               "p2p / best", "wall (s)"]
    rows = []
    for c in configs_:
        messages = c.plan_messages()
        best_engine, best = c.best_single()
        adaptive = c.time(ADAPTIVE)
        chose = c.records.get(ADAPTIVE, {}).get("result", {}).get("adaptive_choice", "-")
        rows.append(
            [c.x, "-" if messages is None else f"{messages[0]:.1f}, {messages[1]}"]
            + [cell(c, e) for e in engines]
            + [chose, best_engine or "-", times_x(ratio(adaptive, best)),
               times_x(ratio(c.time(P2P), adaptive)), times_x(ratio(c.time(P2P), best)),
               f"{c.wall_s():.0f}"]
        )
    return markdown(header, rows)


def ms(seconds):
    return "-" if seconds is None else f"{seconds * 1e3:.3f}"


def init_table(configs_, x_label):
    """Per configuration: each engine's initialization (setup, plus profiling for adaptive)."""
    engines = [e for e in engines_in(configs_) if e != BASELINE]
    header = [x_label] + [f"{e} (ms)" for e in engines]
    warm_reference = P2P_WARM if P2P_WARM in engines else P2P
    header += ["adaptive / p2p", f"adaptive-warm / {warm_reference}",
               "adaptive-warm / its choice"]
    rows = []
    for c in configs_:
        rows.append([c.x] + [ms(c.init_time(e)) for e in engines]
                    + [times_x(ratio(c.init_time(ADAPTIVE), c.init_time(P2P))),
                       times_x(c.warm_init_ratio()), times_x(c.warm_choice_ratio())])
    return markdown(header, rows)


def detail_table(configs_, x_label):
    """Every run: times, setup, traffic per rank, simulation wall time, or why it is missing."""
    header = [x_label, "engine", "exchange (us)", "setup (ms)", "profiling (ms)", "msgs max",
              "msgs mean",
              "KB max", "KB mean", "wall (s)", "note"]
    rows = []
    for c in configs_:
        for engine in engines_in([c]):
            r = c.records[engine]
            if r["status"] != "ok":
                rows.append([c.x, engine, "-", "-", "-", "-", "-", "-", "-",
                             f"{r.get('wall_s', 0):.0f}", r.get("reason", "")])
                continue
            b = r["result"]
            rows.append([
                c.x, engine, us(b["exchange_median_s"]), ms(b["setup_s"]),
                ms(b.get("profiling_s")),
                b["msgs_per_rank_max"], f"{b['msgs_per_rank_mean']:.1f}",
                f"{b['bytes_per_rank_max'] / 1e3:.1f}", f"{b['bytes_per_rank_mean'] / 1e3:.1f}",
                f"{r.get('wall_s', 0):.0f}", b.get("adaptive_choice", ""),
            ])
    return markdown(header, rows)


def target_misses(configs_):
    """Configurations where adaptive is more than TOLERANCE slower than the best or p2p."""
    checked, misses = 0, []
    for c in configs_:
        adaptive = c.time(ADAPTIVE)
        best_engine, best = c.best_single()
        if adaptive is None or best is None:
            continue
        checked += 1
        p2p = c.time(P2P)
        if adaptive > TOLERANCE * best or (p2p is not None and adaptive > TOLERANCE * p2p):
            misses.append((c, best_engine, adaptive / best))
    return checked, misses


def init_misses(configs_):
    """Configurations where adaptive on a warm cache initializes more than INIT_TOLERANCE
    times slower than p2p: (configuration, ratio, ratio to the setup of its choice)."""
    checked, misses = 0, []
    for c in configs_:
        r = c.warm_init_ratio()
        if r is None:
            continue
        checked += 1
        if r > INIT_TOLERANCE:
            misses.append((c, r, c.warm_choice_ratio()))
    return checked, misses
