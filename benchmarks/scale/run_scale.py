#!/usr/bin/env python3
"""Reruns the performance evaluation of the data-transfer paper with `ferry bench exchange`.

Simulated: the SMPI-built ferry on a SimGrid platform (default Tansuo100 as the paper
describes it), one simulation per configuration and engine. Real: the normal build
under this machine's MPI at 2 to 8 ranks, every engine in one run. Results are
appended to a JSON-lines file as they come; docs/benchmarks/scale.md gets the tables,
the checks against the targets and the paper, and the figures (docs/benchmarks/scale/).

Builds nothing: see docs/benchmarks/scale.md for the two configure lines.

    .venv/bin/python benchmarks/scale/run_scale.py --quick          # a few minutes
    .venv/bin/python benchmarks/scale/run_scale.py                  # the full set
    .venv/bin/python benchmarks/scale/run_scale.py --report-only    # redraw from the results
"""

import argparse
import dataclasses
import datetime
import os
import sys
import tempfile
import time
from pathlib import Path

import experiments as experiment_list
import launch
import report
import tables
from results import ResultStore, make_record, run_key

ROOT = Path(__file__).resolve().parents[2]

# Engines whose simulation cost outgrows the budget: SMPI's MPI_Ialltoallv posts a
# message for every pair of ranks, empty or not, and simulating P^2 messages takes
# about 30 s of CPU per exchange at 192 ranks. Above the limit the engine is not
# simulated, and the adaptive engine profiles only the engines that are.
DEFAULT_SIM_MAX_RANKS = {"alltoallv": 96}
SIM_LIMIT_REASON = {
    "alltoallv": "MPI_Ialltoallv in SMPI costs O(P^2) simulated messages",
    "adaptive": "profiling every candidate and butterfly mask outruns the time budget",
}


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smpi-ferry", default=ROOT / "build-smpi/bin/ferry", type=Path,
                        help="ferry built with smpicxx (default build-smpi/bin/ferry)")
    parser.add_argument("--ferry", default=ROOT / "build/bin/ferry", type=Path,
                        help="ferry built with the system MPI (default build/bin/ferry)")
    parser.add_argument("--platform", default=ROOT / "benchmarks/platforms/tansuo100.xml",
                        type=Path, help="SimGrid platform (default tansuo100.xml)")
    parser.add_argument("--quick", action="store_true",
                        help="a few points per experiment, smaller sizes")
    parser.add_argument("--only", default="", help="comma-separated experiment keys: "
                        + ", ".join(e.key for e in experiment_list.experiments(False)))
    parser.add_argument("--no-sim", action="store_true", help="skip the simulations")
    parser.add_argument("--no-real", action="store_true", help="skip the real runs")
    parser.add_argument("--resume", action="store_true",
                        help="keep the runs already in the results file (failed and "
                        "skipped runs are tried again)")
    parser.add_argument("--report-only", action="store_true",
                        help="run nothing; rewrite the document from the results file")
    parser.add_argument("--sim-repeat", type=int, default=1,
                        help="timed exchanges per simulation (default 1: the simulator "
                        "gives the same time every exchange)")
    parser.add_argument("--real-repeat", type=int, default=20,
                        help="timed exchanges per real run (default 20)")
    parser.add_argument("--real-warm-runs", type=int, default=5,
                        help="processes on the warm tuning cache per real configuration; "
                        "each engine's row of median setup time is kept (default 5)")
    parser.add_argument("--sim-max-ranks", action="append", default=[], metavar="ENGINE=N",
                        help="simulate ENGINE only up to N ranks (defaults: "
                        + ", ".join(f"{k}={v}" for k, v in DEFAULT_SIM_MAX_RANKS.items()) + ")")
    parser.add_argument("--sim-points-max-ranks", type=int, default=None, metavar="N",
                        help="simulate only the configurations of at most N ranks in all, "
                        "recording nothing for the others (a later --resume run adds them)")
    parser.add_argument("--sim-runs", default=None, metavar="LIST",
                        help="comma-separated run labels (engines, adaptive-warm) to "
                        "simulate, leaving the others for another driver on its own results "
                        "file; adaptive still profiles every engine simulated at that size")
    parser.add_argument("--strict", action="store_true",
                        help="exit with status 1 if a run failed (for smoke tests)")
    parser.add_argument("--timeout", type=float, default=1800,
                        help="seconds before one run is given up (default 1800)")
    parser.add_argument("--results", type=Path,
                        default=ROOT / "docs/benchmarks/scale/results.jsonl")
    parser.add_argument("--doc", type=Path, default=ROOT / "docs/benchmarks/scale.md",
                        help="the page to rewrite; its figures go to a folder named like it "
                        "next to it (default docs/benchmarks/scale.md, figures in scale/)")
    return parser.parse_args()


def rank_limits(overrides):
    limits = dict(DEFAULT_SIM_MAX_RANKS)
    for item in overrides:
        engine, _, value = item.partition("=")
        limits[engine] = int(value)
    return limits


def log(text):
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


def _store_outcome(store, record, outcome):
    common = {"wall_s": outcome.wall_s, "command": outcome.command}
    if outcome.error:
        store.add({**record, **common, "status": "failed", "reason": outcome.error})
    for row in outcome.rows:
        store.add({**record, **common, "status": "ok", "result": row})


def _runs(engines):
    """(label, engine) per simulation: every engine, then adaptive again on the tuning
    cache its first run filled (the label says so)."""
    runs = [(engine, engine) for engine in engines]
    if tables.ADAPTIVE in engines:
        runs.append((tables.ADAPTIVE_WARM, tables.ADAPTIVE))
    return runs


def simulate(experiments, store, simulator, platform, limits, max_ranks, labels=None):
    engines = simulator.engines()
    log(f"simulating on {platform}; engines: {', '.join(engines)}")
    for e in experiments:
        for point in e.simulated:
            if max_ranks is not None and point.ranks > max_ranks:
                continue
            # A fresh cache per configuration: the first adaptive run profiles and fills it.
            with tempfile.TemporaryDirectory() as work:
                cache = Path(work) / "tuning-cache"
                simulated = [name for name in engines
                             if point.ranks <= limits.get(name, point.ranks)]
                candidates = [name for name in simulated
                              if name != tables.ADAPTIVE]
                for label, engine in _runs(engines):
                    record = make_record(e, "sim", platform, point, label)
                    if labels is not None and label not in labels:
                        continue
                    if store.has(run_key(record)):
                        continue
                    if engine not in simulated:
                        limit = limits[engine]
                        store.add({**record, "status": "skipped", "reason":
                                   f"over {limit} ranks: {SIM_LIMIT_REASON.get(engine, '')}"})
                        continue
                    if label == tables.ADAPTIVE_WARM and not cache.exists():
                        store.add({**record, "status": "skipped",
                                   "reason": "the first adaptive run left no tuning cache"})
                        continue
                    extra = []
                    if engine == tables.ADAPTIVE:
                        # The simulator gives the same time to every exchange of a
                        # candidate: one warm-up and one sample decide as well as more.
                        extra = ["--warmup", "1", "--samples", "1"]
                        if len(candidates) < len(engines) - 1:
                            extra += ["--candidates", ",".join(candidates)]
                    outcome = simulator.run(point, engine, cache, extra)
                    log(f"{e.key} {point.panel} x={point.x} {label}: {outcome.wall_s:.0f} s"
                        + (f" FAILED {outcome.error}" if outcome.error else ""))
                    _store_outcome(store, record, outcome)


def _warm_engines(outcome):
    """The engines of the warm real run, in setup order: the baseline, whose first
    exchange pays the process's one-off costs (connections, shared-memory segments),
    then on equal terms p2p, the engine adaptive chose in `outcome` (unless p2p or a
    butterfly stage mask, which has no engine name), and adaptive on the warm cache."""
    choice = next((row.get("adaptive_choice") for row in outcome.rows
                   if row["engine"] == tables.ADAPTIVE), None)
    engines = [tables.BASELINE, tables.P2P]
    if choice and ":" not in choice and choice not in engines:
        engines.append(choice)
    return engines + [tables.ADAPTIVE], choice


def _median_setup_rows(outcomes):
    """Per engine, the row of median setup time among the runs' rows: setup is timed
    once per run, and one run on oversubscribed cores is often several times slower."""
    rows = {}
    for outcome in outcomes:
        for row in outcome.rows:
            rows.setdefault(row["engine"], []).append(row)
    return [sorted(same, key=lambda row: row["setup_s"])[len(same) // 2]
            for same in rows.values()]


def _store_warm_outcome(store, record, outcomes, choice):
    """The median rows of the warm real runs under their labels; the baseline's is
    dropped. Any failed run fails them all."""
    failed = next((o for o in outcomes if o.error), None)
    outcome = dataclasses.replace(outcomes[-1], rows=_median_setup_rows(outcomes),
                                  wall_s=sum(o.wall_s for o in outcomes))
    if failed:
        outcome = dataclasses.replace(failed, rows=[])
    labels = {tables.P2P_WARM: tables.P2P, tables.CHOICE_WARM: choice,
              tables.ADAPTIVE_WARM: tables.ADAPTIVE}
    for label, engine in labels.items():
        rows = [row for row in outcome.rows if row["engine"] == engine]
        if rows or outcome.error:
            _store_outcome(store, {**record, "requested": label},
                           dataclasses.replace(outcome, rows=rows))


def run_real(experiments, store, runner, warm_runs):
    for e in experiments:
        for point in e.real:
            record = make_record(e, "real", "local", point, "all")
            warm = make_record(e, "real", "local", point, tables.ADAPTIVE_WARM)
            if store.has(run_key(record)) and store.has(run_key(warm)):
                continue
            # Both runs again: the second needs the tuning cache the first fills.
            for label in ("all", tables.ADAPTIVE_WARM, *tables.WARM_REFERENCES):
                store.forget(run_key({**record, "requested": label}))
            with tempfile.TemporaryDirectory() as work:
                # Every engine, adaptive profiling and filling a fresh tuning cache, then
                # a second process on that cache.
                cache = Path(work) / "tuning-cache"
                outcome = runner.run(point, "all", cache)
                log(f"{e.key} (real) {point.panel} x={point.x} all: {outcome.wall_s:.0f} s"
                    + (f" FAILED {outcome.error}" if outcome.error else ""))
                _store_outcome(store, record, outcome)
                if not cache.exists():
                    store.add({**warm, "status": "skipped",
                               "reason": "the run of every engine left no tuning cache"})
                    continue
                engines, choice = _warm_engines(outcome)
                outcomes = [runner.run(point, ",".join(engines), cache)
                            for _ in range(warm_runs)]
                errors = [o.error for o in outcomes if o.error]
                log(f"{e.key} (real) {point.panel} x={point.x} {tables.ADAPTIVE_WARM}: "
                    f"{warm_runs} runs, {sum(o.wall_s for o in outcomes):.0f} s"
                    + (f" FAILED {errors[0]}" if errors else ""))
                _store_warm_outcome(store, warm, outcomes, choice)


def context_text(store, platform, started, load_before):
    sims = [r for r in store.records if r["mode"] == "sim" and r["status"] != "skipped"]
    wall = sum(r.get("wall_s", 0) for r in sims)
    failed = sum(r["status"] == "failed" for r in store.records)
    libraries = sorted({r["result"]["mpi_library"].split(",")[0] for r in store.records
                        if r["status"] == "ok" and r["mode"] == "real"})
    text = (f"Generated {datetime.date.today().isoformat()} from "
            f"`{launch.relative(store.path, ROOT)}`: {len(sims)} simulations on `{platform}` "
            f"({wall / 60:.1f} min of simulation wall time in total), {failed} failed runs.")
    if libraries:
        text += (f" Real runs: {', '.join(libraries)} on {os.cpu_count()} cores.")
    if started is not None:
        text += (f" This invocation took {(time.monotonic() - started) / 60:.1f} min; load "
                 f"average before {load_before:.1f}, after {os.getloadavg()[0]:.1f} (other "
                 "work on the machine slows the simulations' wall time, not their results).")
    return text


def main():
    args = parse_args()
    chosen = experiment_list.experiments(args.quick)
    if args.only:
        keys = set(args.only.split(","))
        unknown = keys - {e.key for e in chosen}
        if unknown:
            sys.exit(f"run_scale.py: unknown experiment(s) {', '.join(sorted(unknown))}")
        chosen = [e for e in chosen if e.key in keys]
    platform = args.platform.stem
    store = ResultStore(args.results, resume=args.resume or args.report_only)
    started, load_before = None, None
    if not args.report_only:
        started, load_before = time.monotonic(), os.getloadavg()[0]
        if not args.no_sim:
            simulator = launch.Simulator(args.smpi_ferry, args.platform, ROOT, args.sim_repeat,
                                         args.timeout)
            labels = None if args.sim_runs is None else set(args.sim_runs.split(","))
            simulate(chosen, store, simulator, platform, rank_limits(args.sim_max_ranks),
                     args.sim_points_max_ranks, labels)
        if not args.no_real:
            run_real(chosen, store, launch.RealMpi(args.ferry, ROOT, args.real_repeat,
                                                   args.timeout), args.real_warm_runs)
    everything = experiment_list.experiments(args.quick)
    text = report.generated(everything, store, args.doc.parent / args.doc.stem,
                            args.doc.parent, context_text(store, platform, started, load_before))
    report.update_document(args.doc, text, "At-scale benchmarks on simulated clusters")
    log(f"wrote {launch.relative(args.doc, ROOT)}")
    failed = [r for r in store.records if r["status"] == "failed"]
    if args.strict and failed:
        sys.exit(f"run_scale.py: {len(failed)} run(s) failed, the first: "
                 f"{failed[0]['experiment']} x={failed[0]['x']} {failed[0]['requested']}: "
                 f"{failed[0]['reason']}")


if __name__ == "__main__":
    main()
