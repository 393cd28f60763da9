"""The Python twin of fault_case.cpp's case "throw": a coupled run in which rank 1
raises in its own code, inside `with ferry.Coupler(...)`.

    python fault_case.py --engine=ENGINE [--watchdog=SECONDS] [--uncaught]

Component atm runs on every rank but the last, ocn on the last; atm puts field t every
600 s of a 3600 s run, ocn gets and checks it. At 1200 s rank 1 raises RuntimeError:
leaving the `with` block abandons its coupler, which tells every other rank at once.
Each rank prints "fault-case rank R: <what it raised>" and exits with status 1, so that
mpi4py finalizes MPI (the ordinary end of a script that caught the error). With
--uncaught (under `python -m mpi4py`) the error escapes and mpi4py aborts the job.
"""

import argparse
import os
import sys
import tempfile

import numpy as np
from mpi4py import MPI

import ferry


def say(line):
    # One write per line: print() writes the text and its newline separately, and
    # mpiexec may put another rank's output between the two.
    sys.stdout.write(line + "\n")
    sys.stdout.flush()

POINTS = 60
PERIOD = 600.0


def config(comm, engine, watchdog):
    directory = comm.bcast(tempfile.mkdtemp(prefix="ferry_faults_") if comm.rank == 0 else None)
    path = os.path.join(directory, "run.yaml")
    if comm.rank == 0:
        with open(path, "w") as f:
            f.write(
                f"version: 1\nrun: {{start: 0, length: 3600}}\n"
                f"output: {{directory: {directory}, timers: false}}\n"
                f"watchdog: {{timeout: {watchdog}, collective_timeout: {2 * watchdog}}}\n"
                f"exchanges:\n  - name: sst\n    source: {{component: atm, field: t}}\n"
                f"    target: {{component: ocn, field: t_in}}\n    period: {PERIOD}\n"
                f"    engine: {engine}\n"
            )
    comm.Barrier()
    return path


def run(comm, engine, watchdog):
    p, r = comm.size, comm.rank
    atm = r < p - 1
    with ferry.Coupler(comm, "atm" if atm else "ocn", config(comm, engine, watchdog)) as coupler:
        if atm:
            layout = ferry.Layout.block(POINTS, p - 1, r)
        else:
            layout = ferry.Layout.round_robin(POINTS, 1, 0)
        grid = coupler.def_grid("atm" if atm else "ocn", "g", POINTS)
        part = coupler.def_partition(grid, "p", layout)
        field = coupler.def_field(part, "t" if atm else "t_in", "out" if atm else "in", np.float64)
        coupler.enddef()
        ids = layout.ids
        for step in range(6):
            t = step * PERIOD
            if r == 1 and step == 2:
                raise RuntimeError("injected failure on rank 1")
            if atm:
                coupler.put(field, t, 4.0 * ids + step)
            else:
                got = np.empty(len(ids))
                coupler.get(field, t, got)
                if not np.array_equal(got, 4.0 * ids + step):
                    raise RuntimeError(f"wrong values at {t} s")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--engine", default="auto")
    parser.add_argument("--watchdog", type=float, default=3)
    parser.add_argument("--uncaught", action="store_true")
    args = parser.parse_args()
    comm = MPI.COMM_WORLD
    if args.uncaught:
        run(comm, args.engine, args.watchdog)
        return 0
    try:
        run(comm, args.engine, args.watchdog)
    except Exception as error:  # noqa: BLE001 - every failure is the case's output
        say(f"fault-case rank {comm.rank}: {error}")
        return 1
    say(f"fault-case rank {comm.rank}: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
