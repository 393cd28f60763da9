"""YAC 3 computing first-order conservative weights between two SCRIP grid files,
for docs/benchmarks/regrid.md: the time of its enddef, where YAC builds the weights,
and the peak memory per rank. The files are the ones `ferry bench regrid --grid
rotated --dir DIR` writes (ocean.nc, atmosphere.nc), so YAC sees ferry's cells.

YAC is the PyPI wheel `yac`, installed with mpi4py and netCDF4 in a venv of its own; it
is never a dependency of ferry. Run as two components of N ranks each, or both in one
process (role "both"):

    mpiexec -n N python yac_scrip_conservative.py ocean DIR : \\
            -n N python yac_scrip_conservative.py atmos DIR
    mpiexec -n 1 python yac_scrip_conservative.py both DIR

Each rank holds a block of each of its grids' cells (4 corners each, not shared
between cells: the grid as a SCRIP file gives it); the ocean's edges are great
circles, the atmosphere's lon-lat edges (parallels and meridians). With a third
argument FILE, YAC also writes its weights there (for comparisons; not for timing).
"""

import resource
import sys
import time

import numpy as np
import yac
from mpi4py import MPI
from netCDF4 import Dataset

role, folder = sys.argv[1], sys.argv[2]
weight_file = sys.argv[3] if len(sys.argv) > 3 else None
roles = ["ocean", "atmos"] if role == "both" else [role]
files = {"ocean": "ocean.nc", "atmos": "atmosphere.nc"}

instance = yac.YAC()
yac.def_calendar(yac.Calendar.PROLEPTIC_GREGORIAN)
instance.def_datetime("2000-01-01T00:00:00", "2000-01-01T01:00:00")
components = dict(zip(roles, instance.def_comps(roles)))
keep = []  # YAC keeps pointers to the coordinates
for name, component in components.items():
    comm = component.comp_comm
    data = Dataset(folder + "/" + files[name])
    size = data.dimensions["grid_size"].size
    first, last = comm.rank * size // comm.size, (comm.rank + 1) * size // comm.size
    n = last - first
    lon = np.radians(np.asarray(data["grid_corner_lon"][first:last, :], dtype=np.float64))
    lat = np.radians(np.asarray(data["grid_corner_lat"][first:last, :], dtype=np.float64))
    grid = yac.UnstructuredGrid(
        name, np.full(n, 4), lon.ravel(), lat.ravel(), np.arange(4 * n),
        use_ll_edges=(name == "atmos"),
    )
    grid.set_global_index(np.arange(first, last), yac.Location.CELL)
    grid.set_global_index(np.arange(4 * first, 4 * last), yac.Location.CORNER)
    points = grid.def_points(
        yac.Location.CELL,
        np.radians(np.asarray(data["grid_center_lon"][first:last], dtype=np.float64)),
        np.radians(np.asarray(data["grid_center_lat"][first:last], dtype=np.float64)),
    )
    keep += [lon, lat, grid, points]
    yac.Field.create("f", component, points, 1, "3600", yac.TimeUnit.SECOND)
    data.close()
instance.sync_def()
if "ocean" in roles:
    stack = yac.InterpolationStack()
    stack.add_conservative(order=1, normalisation=yac.ConservNormalizationType.FRACAREA)
    instance.def_couple(
        "ocean", "ocean", "f", "atmos", "atmos", "f", "3600", yac.TimeUnit.SECOND,
        yac.Reduction.TIME_NONE, stack, weight_file=weight_file,
    )
world = MPI.COMM_WORLD
peak_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
world.Barrier()
start = time.perf_counter()
instance.enddef()
world.Barrier()
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
growth = world.gather(peak - peak_before)
peaks = world.gather(peak)
if world.rank == 0:
    print(f"yac conservative ocean -> atmos enddef: {seconds:.3f} s on {world.size} "
          f"process(es) ({role}); peak resident memory per process (max / mean) "
          f"{max(peaks):.1f} / {np.mean(peaks):.1f} MiB, of it grown during enddef "
          f"{max(growth):.1f} / {np.mean(growth):.1f} MiB")
