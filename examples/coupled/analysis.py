"""The demo's analysis component (Python): once a day it receives the daily mean 2-m
temperature and the sea surface temperature into NumPy arrays and appends their
global means to a log, one line per day.

    mpiexec ... : -n 1 python -m mpi4py analysis.py CONFIG START LENGTH LOG
"""

import sys

import numpy as np
from mpi4py import MPI

import ferry

NX, NY = 72, 36
DAY = 86400.0


def main(config: str, start: float, length: float, log: str) -> None:
    coupler = ferry.Coupler(MPI.COMM_WORLD, "analysis", config)
    comm = coupler.local_comm("analysis")
    layout = ferry.Layout.round_robin(NX * NY, comm.size, comm.rank)
    part = coupler.def_partition(coupler.def_grid("analysis", "lonlat", NX, NY), "cyclic", layout)
    t2m = coupler.def_field(part, "t2m", "in", np.float64)
    sst = coupler.def_field(part, "sst", "in", np.float64)
    coupler.enddef()

    air = np.empty(layout.local_size)
    sea = np.empty(layout.local_size)
    lines = []
    time = start
    while time < start + length:
        received = coupler.get(t2m, time, air) & ferry.Status.RECEIVED
        coupler.get(sst, time, sea)
        if received:
            # A fixed-order global sum (gather, then sum in id order) gives the same
            # bits for any number of analysis ranks.
            ids = comm.gather(layout.ids, root=0)
            values = comm.gather(np.stack([air, sea]), root=0)
            if comm.rank == 0:
                order = np.argsort(np.concatenate(ids), kind="stable")
                both = np.concatenate(values, axis=1)[:, order]
                lines.append(f"day {time / DAY:g}: t2m {float(both[0].mean())!r} sst {float(both[1].mean())!r}")
        time += DAY
    coupler.finalize()
    if comm.rank == 0:
        with open(log, "a", encoding="utf-8") as out:
            out.write("\n".join(lines) + "\n")
        print("\n".join(f"analysis {line}" for line in lines))


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4])
