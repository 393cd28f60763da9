"""Processor time of ferry's online bilinear (or bicubic) weights between two grids of
an OASIS grids.nc / masks.nc, for docs/benchmarks/regrid.md and oasis.md:

    mpiexec -n P python online_bilinear.py DIR [REPEATS] [SAVE.npz]

DIR holds OASIS's example grids.nc and masks.nc (the tutorial's, or the ones its run
writes). The weights are LMDZ (96 x 72) -> ORCA2 (torc), OASIS's `SCRIPR BILINEAR`
of the tutorial (four-nearest fill); METHOD=bicubic and UNMAPPED=nearest|fill in the
environment change the method and the fill, GRIDS=torc,lmdz the grids (source,
target; LMDZ's 96 pole points then lie in ORCA2's cell round the pole). Prints the median over REPEATS (default
10) of the slowest rank's processor time. SAVE.npz gets every link (rows, sources,
values in row order) for comparing two builds bit for bit.
"""

import os
import sys
import time

import numpy as np
from mpi4py import MPI

import ferry

comm = MPI.COMM_WORLD
folder = sys.argv[1]
repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 10
save = sys.argv[3] if len(sys.argv) > 3 else None
method = getattr(ferry, os.environ.get("METHOD", "bilinear") + "_weights")
unmapped = os.environ.get("UNMAPPED", "four_nearest")


def grid(name):
    return ferry.read_grid(comm, f"{folder}/grids.nc", name=name, masks=f"{folder}/masks.nc")


names = os.environ.get("GRIDS", "lmdz,torc").split(",")
source, target = grid(names[0]), grid(names[1])
seconds = []
for _ in range(repeats):
    comm.Barrier()
    start = time.process_time()
    weights = method(comm, source.points, target.points, nx=source.nx, unmapped=unmapped)
    seconds.append(comm.allreduce(time.process_time() - start, op=MPI.MAX))
if comm.rank == 0:
    print(f"{os.environ.get('METHOD', 'bilinear')} {names[0]} -> {names[1]}, {unmapped}, "
          f"{comm.size} ranks: "
          f"{1e3 * sorted(seconds)[repeats // 2]:.2f} ms processor time (median of {repeats}), "
          f"{weights.global_links} links")
rows = np.repeat(np.arange(weights.first_row, weights.first_row + weights.row_count),
                 np.diff(weights.row_start))
parts = comm.gather((rows, np.array(weights.cols), np.array(weights.values)))
if save and comm.rank == 0:
    np.savez(save, **{key: np.concatenate([p[k] for p in parts])
                      for k, key in enumerate(("rows", "cols", "values"))})
