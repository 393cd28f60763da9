"""The demo's analysis component (Python): once a day it receives the daily mean 2-m
temperature and the sea surface temperature into NumPy arrays and appends their
global means to a log, one line per day.

    mpiexec ... : -n 1 python -m mpi4py analysis.py CONFIG START LENGTH LOG
"""

import sys

import numpy as np
from mpi4py import MPI

import ferry

ATM_NX, ATM_NY = 96, 48  # the atmosphere's Gaussian grid
OCN_NX, OCN_NY = 72, 36  # the ocean's longitude-latitude grid
DAY = 86400.0


def global_mean(comm: MPI.Comm, layout: ferry.Layout, values: np.ndarray) -> float | None:
    """The mean over all points in global id order, on rank 0 (None elsewhere)."""
    ids = comm.gather(layout.ids, root=0)
    gathered = comm.gather(values, root=0)
    if comm.rank != 0:
        return None
    order = np.argsort(np.concatenate(ids), kind="stable")
    return float(np.concatenate(gathered)[order].mean())


def main(config: str, start: float, length: float, log: str) -> None:
    coupler = ferry.Coupler(MPI.COMM_WORLD, "analysis", config)
    comm = coupler.local_comm("analysis")
    # Each field on its source's grid: the analysis receives them without regridding.
    layouts, fields = [], []
    for grid, nx, ny, name in (("gaussian", ATM_NX, ATM_NY, "t2m"), ("lonlat", OCN_NX, OCN_NY, "sst")):
        layout = ferry.Layout.round_robin(nx * ny, comm.size, comm.rank)
        part = coupler.def_partition(coupler.def_grid("analysis", grid, nx, ny), "cyclic", layout)
        layouts.append(layout)
        fields.append(coupler.def_field(part, name, "in", np.float64))
    coupler.enddef()

    values = [np.empty(layout.local_size) for layout in layouts]
    lines = []
    time = start
    while time < start + length:
        received = coupler.get(fields[0], time, values[0]) & ferry.Status.RECEIVED
        coupler.get(fields[1], time, values[1])
        if received:
            # A fixed-order global mean (gather, then sum in id order) gives the same
            # bits for any number of analysis ranks.
            means = [global_mean(comm, layout, v) for layout, v in zip(layouts, values)]
            if comm.rank == 0:
                lines.append(f"day {time / DAY:g}: t2m {means[0]!r} sst {means[1]!r}")
        time += DAY
    coupler.finalize()
    if comm.rank == 0:
        with open(log, "a", encoding="utf-8") as out:
            out.write("\n".join(lines) + "\n")
        print("\n".join(f"analysis {line}" for line in lines))


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4])
