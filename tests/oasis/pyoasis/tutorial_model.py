"""OASIS3-MCT's tutorial pair written for pyOASIS: model1 (the ORCA2 ocean, grid torc)
and model2 (the LMDZ atmosphere, grid lmdz), as the Fortran programs of the tutorial
do it. Each reads its grid from grid_model<N>.nc, writes it for OASIS on its first
process, takes an APPLE partition of whole latitude rows, and at every time step
receives the field of the other model and sends its own: the tutorial's analytic
function of longitude and latitude times the step number. Run model1.py and model2.py
(or one of them and the Fortran program of the other) under mpiexec in a directory
holding the namcouple and the tutorial's data files.
"""

import math

import netCDF4
import numpy

import pyoasis

MODELS = {
    "model1": dict(grid="torc", send="FSENDOCN", receive="FRECVOCN", steps=12, step=3600),
    "model2": dict(grid="lmdz", send="FSENDATM", receive="FRECVATM", steps=24, step=1800),
}

# The constants of the tutorial's function, as its Fortran source writes them: the
# literals are single precision (3.14159265359 and 1.2 rounded to float32) widened to
# double, so the field sent is the Fortran program's to the last bit.
PI = float(numpy.float32(3.14159265359))
LENGTH = float(numpy.float32(1.2)) * PI
DEGREE = PI / 180.0


def analytic(lon, lat):
    """2 - cos(pi * acos(cos(lat) cos(lon)) / length) at every point: the field of step 1.

    Point by point with the C library's cos and acos (math), as the Fortran program
    calls them, not NumPy's vectorised ones, which may round differently."""
    return numpy.array(
        [
            2.0 - math.cos(PI * (math.acos(math.cos(y * DEGREE) * math.cos(x * DEGREE)) / LENGTH))
            for x, y in zip(lon.tolist(), lat.tolist())
        ]
    )


def read_grid(path):
    """lon, lat, clo, cla, srf as (x, y[, corner]) arrays and the file's mask imask."""
    with netCDF4.Dataset(path) as nc:
        nc.set_auto_mask(False)
        # The file's (y, x) and (corner, y, x) C-order variables, seen with x first.
        names = ("lon", "lat", "clo", "cla", "srf", "imask")
        return {name: numpy.asarray(nc[name][:]).T for name in names}


def run(model):
    m = MODELS[model]
    comp = pyoasis.Component(model)
    rank, size = comp.localcomm.rank, comp.localcomm.size
    grid = read_grid(f"grid_{model}.nc")
    nx, ny = grid["lon"].shape

    if rank == 0:
        # OASIS's masks are 1 where a point is masked; the file has 1 where it is valid.
        written = pyoasis.Grid(m["grid"], nx, ny, grid["lon"], grid["lat"])
        written.set_corners(grid["clo"], grid["cla"])
        written.set_area(grid["srf"])
        written.set_mask(numpy.where(grid["imask"] == 1, 0, 1))
        written.write()

    # Whole rows of latitude per process; the last takes the rest.
    rows = ny // size
    first = rank * rows
    last = ny if rank == size - 1 else first + rows
    partition = pyoasis.ApplePartition(first * nx, (last - first) * nx)
    received = pyoasis.Var(m["receive"], partition, pyoasis.OasisParameters.OASIS_IN)
    sent = pyoasis.Var(m["send"], partition, pyoasis.OasisParameters.OASIS_OUT)
    comp.enddef()

    lon = grid["lon"][:, first:last].ravel(order="F")
    lat = grid["lat"][:, first:last].ravel(order="F")
    shape = analytic(lon, lat)
    field = numpy.empty(partition.local_size)
    for step in range(1, m["steps"] + 1):
        date = m["step"] * (step - 1)
        field.fill(-1.0)
        info = received.get(date, field)
        if info not in (pyoasis.OASIS.OK, pyoasis.OASIS.RECVD, pyoasis.OASIS.RECVOUT):
            pyoasis.oasis_abort(comp.id, model, f"get of {m['receive']} at {date} returned {info}")
        if info != pyoasis.OASIS.OK:
            low, high = field.min(), field.max()
            print(f"{model} rank {rank}: {m['receive']} at {date}: min {low!r} max {high!r}")
        sent.put(date, step * shape)
    del comp
