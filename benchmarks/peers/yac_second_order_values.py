"""YAC 3 remapping analytic fields ORCA2 (torc) -> LMDZ by second-order conservative
interpolation, for the comparison of values with ferry's second order in
docs/benchmarks/regrid.md.

YAC applies the gradient terms of its second order when it exchanges a field (its
weight file holds only the first-order links), so its values are compared through a
put and a get: the ocean puts each field at ORCA2's cell centres, the atmosphere gets
it on LMDZ and its rank 0 writes the received fields to OUT (NetCDF, one variable per
field, NaN where YAC gave nothing). Run as two components, N ranks each, in the venv
that holds the `yac` wheel, mpi4py and netCDF4 (never a dependency of ferry):

    mpiexec -n N python yac_second_order_values.py ocean DIR OUT : \\
            -n N python yac_second_order_values.py atmos DIR OUT

DIR holds the OASIS example grids.nc and masks.nc; masks and options are those of
yac_conservative.py (LMDZ with lon-lat edges, OASIS's masks, partial_coverage,
FRACAREA), but the cells share their corners: with a vertex of its own per cell
corner, as yac_conservative.py gives them, a cell has no neighbours and YAC's second
order gives exactly its first-order values. compare_second_order.py then computes
ferry's values and compares.
"""

import sys

import numpy as np
import yac
from mpi4py import MPI
from netCDF4 import Dataset

from analytic_fields import FIELDS, analytic
from yac_oasis_grids import read_block, start

def main():
    role, folder, out = sys.argv[1], sys.argv[2], sys.argv[3]
    name = {"ocean": "torc", "atmos": "lmdz"}[role]
    instance, component = start(role)
    comm = component.comp_comm
    block = read_block(folder, name, comm)
    corner_lon, corner_lat, lon, lat = block.corner_lon, block.corner_lat, block.lon, block.lat
    mask, ids, rank = block.mask, block.ids, comm.rank
    n = len(ids)
    # Cells share their corners (YAC's gradients come from the cells across each
    # edge): corners are one vertex where their coordinates agree to 1e-9 degrees, a
    # pole one vertex whatever its longitude, and a corner repeating the one before
    # it (LMDZ's cells at the poles) is dropped. ORCA2's duplicated cells (the fold
    # rows and the repeated columns, masked by OASIS) are left out of the core.
    corners = np.stack([corner_lon.T.ravel() % 360, corner_lat.T.ravel()], axis=1)
    corners[np.abs(corners[:, 1]) == 90, 0] = 0
    vertices, vertex_of = np.unique(np.round(corners, 9), axis=0, return_inverse=True)
    vertex_of = vertex_of.reshape(-1, 4)[ids]
    repeated = vertex_of == np.roll(vertex_of, 1, axis=1)
    kept = vertex_of[~repeated]
    mine, local = np.unique(kept, return_inverse=True)
    grid = yac.UnstructuredGrid(
        name,
        (~repeated).sum(axis=1),
        np.radians(vertices[mine, 0]),
        np.radians(vertices[mine, 1]),
        local.ravel(),
        use_ll_edges=(name == "lmdz"),
    )
    grid.set_global_index(ids, yac.Location.CELL)
    grid.set_global_index(mine, yac.Location.CORNER)
    if name == "torc":
        grid.set_core_mask(mask[ids] == 0, yac.Location.CELL)
    points = grid.def_points(yac.Location.CELL, np.radians(lon[ids]), np.radians(lat[ids]))
    valid = grid.def_mask(yac.Location.CELL, mask[ids] == 0)
    fields = {
        kind: yac.Field.create(kind, component, points, 1, "3600", yac.TimeUnit.SECOND,
                               masks=[valid])
        for kind in FIELDS
    }
    instance.sync_def()
    if role == "ocean":
        for kind in FIELDS:
            stack = yac.InterpolationStack()
            stack.add_conservative(order=2, partial_coverage=True,
                                   normalisation=yac.ConservNormalizationType.FRACAREA)
            instance.def_couple("ocean", "torc", kind, "atmos", "lmdz", kind, "3600",
                                yac.TimeUnit.SECOND, yac.Reduction.TIME_NONE, stack)
    instance.enddef()
    received = {}
    for kind in FIELDS:
        if role == "ocean":
            fields[kind].put(analytic(kind, lon[ids], lat[ids]).reshape(1, n))
        else:
            buf = np.full((1, n), np.nan)
            fields[kind].get(buf)
            received[kind] = buf.ravel()
    if role == "atmos":
        for kind in FIELDS:
            parts = comm.gather(received[kind], root=0)
            if rank == 0:
                received[kind] = np.concatenate(parts)
        if rank == 0:
            with Dataset(out, "w") as f:
                f.createDimension("cell", mask.size)
                for kind in FIELDS:
                    f.createVariable(kind, "f8", ("cell",))[:] = received[kind]
    instance.cleanup()


if __name__ == "__main__":
    main()
