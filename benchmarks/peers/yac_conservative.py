"""YAC 3 computing first-order conservative weights ORCA2 (torc) -> LMDZ, for
docs/benchmarks/regrid.md: the time of its enddef, where YAC builds the weights.

YAC is the PyPI wheel `yac`, installed with mpi4py and netCDF4 in a venv of its own; it
is never a dependency of ferry. Run as two components, N ranks each:

    mpiexec -n N python yac_conservative.py ocean DIR : -n N python yac_conservative.py atmos DIR

DIR holds the OASIS example grids.nc and masks.nc. Each component holds a block of its
cells (4 corners each; LMDZ with lon-lat edges, as CDO and ferry see it) and OASIS's
mask, which masks ORCA2's fold rows and duplicated columns. A third argument 2 asks
for second order; a fourth, FILE, has YAC write its weights there (for comparisons).
"""

import sys
import time

import numpy as np
import yac
from mpi4py import MPI

from yac_oasis_grids import read_block, start

role, folder = sys.argv[1], sys.argv[2]  # "ocean" (torc, source) or "atmos" (lmdz)
order = int(sys.argv[3]) if len(sys.argv) > 3 else 1
weight_file = sys.argv[4] if len(sys.argv) > 4 else None  # for comparisons, not timing
name = {"ocean": "torc", "atmos": "lmdz"}[role]

instance, component = start(role)
comm = component.comp_comm
rank, size = comm.rank, comm.size
block = read_block(folder, name, comm)
corner_lon, corner_lat, mask, ids = block.corner_lon, block.corner_lat, block.mask, block.ids
first, last = block.first, block.last
n = len(ids)
grid = yac.UnstructuredGrid(
    name,
    np.full(n, 4),
    np.radians(corner_lon[:, ids].T.ravel()),
    np.radians(corner_lat[:, ids].T.ravel()),
    np.arange(4 * n),
    use_ll_edges=(name == "lmdz"),
)
grid.set_global_index(ids, yac.Location.CELL)
grid.set_global_index(np.arange(4 * first, 4 * last), yac.Location.CORNER)
points = grid.def_points(
    yac.Location.CELL,
    np.radians(block.lon[ids]),
    np.radians(block.lat[ids]),
)
valid = grid.def_mask(yac.Location.CELL, mask[ids] == 0)
field = yac.Field.create("f", component, points, 1, "3600", yac.TimeUnit.SECOND, masks=[valid])
instance.sync_def()
if role == "ocean":
    stack = yac.InterpolationStack()
    # partial_coverage: cells partly over masked sources get weights too, as in ferry and CDO
    stack.add_conservative(
        order=order, partial_coverage=True, normalisation=yac.ConservNormalizationType.FRACAREA
    )
    instance.def_couple(
        "ocean", "torc", "f", "atmos", "lmdz", "f", "3600", yac.TimeUnit.SECOND,
        yac.Reduction.TIME_NONE, stack, weight_file=weight_file,
    )
MPI.COMM_WORLD.Barrier()
start = time.perf_counter()
instance.enddef()
MPI.COMM_WORLD.Barrier()
seconds = time.perf_counter() - start
if MPI.COMM_WORLD.rank == 0:
    print(f"yac conservative order {order} torc -> lmdz enddef: {seconds:.3f} s "
          f"on {size} + {size} ranks")
