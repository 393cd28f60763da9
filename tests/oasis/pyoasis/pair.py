"""pyoasis over ferry, every part of its API on a small grid: "ocean" (the first N1
world ranks) holds a 10 x 6 grid in APPLE blocks of rows and in BOX columns, puts
every 300 s (the coupling period is 600 s) a float64 field and a bundle of 2 float32
values, and writes its grid by parts (Grid with a partition); "atmos" holds the grid
as round-robin POINTS (0-based) or, on one process, as a SERIAL partition, and in
ORANGE segments, and gets the first into a C-ordered 2-D array and the bundle as
float64. Every value and info code is checked (SENT/OK from put, put_inquire's codes,
RECVD/OK from get), as are the grid files, cpl_freqs, get_intracomm, get_multi_intracomm, a field the
namcouple does not name (not active, its put refused) and the errors pyoasis raises
for a wrong array.
Prints "pyoasis pair: every value and info code as expected" on world rank 0; every
rank exits with the same status. usage: pair.py N1
"""

import sys

import numpy
from mpi4py import MPI

import pyoasis
from pyoasis import OASIS

NX, NY, STEPS, DT, PERIOD = 10, 6, 8, 300, 600
failures = []


def expect(ok, what):
    if not ok:
        failures.append(what)
        print(f"pyoasis pair, world rank {MPI.COMM_WORLD.rank}: {what}", file=sys.stderr)


def value(ids, t, member=0):
    """The value of global points ids at time t (of the last coupling time)."""
    return ids + 100.0 * member + (t // PERIOD) * PERIOD / 1000.0


def write_grid_by_parts(partition, ids):
    """Grid "ocng", each process its points of partition: lon x, lat y, corner k at
    x + k, mask (x + y) % 2, area 1 + x."""
    x, y = (ids % NX).astype(float), (ids // NX).astype(float)
    grid = pyoasis.Grid("ocng", NX, NY, x, y, partition)
    corners = numpy.stack([x + k for k in range(4)], axis=-1).reshape(len(ids), 1, 4)
    grid.set_corners(corners, corners)
    grid.set_mask((x + y) % 2)
    grid.set_area(1.0 + x)
    grid.write()


def check_grid_files():
    """grids.nc, masks.nc and areas.nc hold the whole grid "ocng" after enddef."""
    import netCDF4

    x, y = numpy.meshgrid(numpy.arange(NX, dtype=float), numpy.arange(NY, dtype=float))
    expected = {
        ("grids.nc", "ocng.lon"): x,
        ("grids.nc", "ocng.lat"): y,
        ("grids.nc", "ocng.clo"): numpy.stack([x + k for k in range(4)]),
        ("masks.nc", "ocng.msk"): (x + y) % 2,
        ("areas.nc", "ocng.srf"): 1.0 + x,
    }
    for (path, name), want in expected.items():
        with netCDF4.Dataset(path) as nc:
            nc.set_auto_mask(False)
            got = numpy.asarray(nc[name][:])
        expect(got.shape == want.shape and numpy.array_equal(got, want), f"{path}: {name}")


def ocean(comp, rank, size):
    rows = NY // size
    first = rank * rows
    mine = NY - first if rank == size - 1 else rows
    apple = pyoasis.ApplePartition(first * NX, mine * NX, name="rows")
    # BOX: columns [x0, x1) of every row.
    x0, x1 = rank * NX // size, (rank + 1) * NX // size
    box = pyoasis.BoxPartition(x0, x1 - x0, NY, NX, global_size=NX * NY, name="columns")
    single = pyoasis.Var("OSINGLE", apple, OASIS.OUT)
    bundle = pyoasis.Var("OBUNDLE", box, OASIS.OUT, bundle_size=2)
    unnamed = pyoasis.Var("NOTANAME", apple, OASIS.OUT)
    apple_ids = numpy.arange(first * NX, (first + mine) * NX)
    write_grid_by_parts(apple, apple_ids)
    comp.enddef()
    if rank == 0:
        check_grid_files()
    expect(not unnamed.is_active and single.is_active, "is_active")
    expect(single.cpl_freqs == [PERIOD], f"cpl_freqs {single.cpl_freqs}")
    # (x, y) of the box in Fortran order: x fastest.
    box_ids = (numpy.arange(x0, x1)[:, None] + NX * numpy.arange(NY)[None, :]).ravel(order="F")
    for t in range(0, STEPS * DT, DT):
        coupling = t % PERIOD == 0
        expected = OASIS.SENT if coupling else OASIS.OK
        expect(single.put_inquire(t) == expected, f"put_inquire at {t}: {single.put_inquire(t)}")
        info = single.put(t, value(apple_ids, t))
        expect(info == expected, f"put of OSINGLE at {t}: {info}")
        members = numpy.stack([value(box_ids, t, m) for m in range(2)], axis=-1)
        members = members.astype(numpy.float32)
        info = bundle.put(t, pyoasis.asarray(members, dtype=numpy.float32))
        expect(info == expected, f"put of OBUNDLE at {t}: {info}")
    try:
        single.put(STEPS * DT, numpy.zeros(3))
        expect(False, "a put of 3 values did not raise")
    except pyoasis.PyOasisException as e:
        expect("expected" in str(e), f"message of a wrong put: {e}")
    # As OASIS: a field the namcouple does not name is not put (check is_active first).
    try:
        unnamed.put(0, value(apple_ids, 0))
        expect(False, "a put of an inactive field did not raise")
    except pyoasis.OasisException as e:
        expect("does not name" in str(e), f"message of an inactive put: {e}")
        expect(str(e).count("oasis_put/get:") == 1, f"routine named once: {e}")
    # The coupler's message names the routine once.
    try:
        single.get(0, value(apple_ids, 0))
        expect(False, "a get of an OUT field did not raise")
    except pyoasis.OasisException as e:
        message = ': oasis_get: variable "OSINGLE" was defined OASIS_Out; put it with oasis_put ('
        expect(message in str(e), f"message of a get of an OUT field: {e}")


def atmos(comp, rank, size):
    # A wrong index (which PointsPartition refuses itself) fails oasis_c_def_partition on
    # this rank alone, naming the point and the vector's first values (1-based, as the
    # face reads the vector in place).
    status, _ = pyoasis._oasis.def_partition([4, 21] + list(range(20)) + [-1], 0, "wrong")
    message = ("POINTS partition (ig_paral = 4, 21, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, ...): "
               "point 21 has index 0; indices start at 1")
    error = pyoasis._oasis.last_error()
    expect(status != 0 and message in error, f"a wrong POINTS index: status {status}, {error}")
    if size == 1:
        points = pyoasis.SerialPartition(NX * NY)
        point_ids = numpy.arange(NX * NY)
    else:
        point_ids = numpy.arange(rank, NX * NY, size)
        points = pyoasis.PointsPartition(point_ids.tolist())
    # ORANGE: two segments, one from each half of the grid.
    half = NX * NY // 2
    lo, hi = rank * half // size, (rank + 1) * half // size
    orange = pyoasis.OrangePartition([lo, half + lo], [hi - lo, hi - lo])
    orange_ids = numpy.concatenate([numpy.arange(lo, hi), numpy.arange(half + lo, half + hi)])
    single = pyoasis.Var("ASINGLE", points, OASIS.IN)
    bundle = pyoasis.Var("ABUNDLE", orange, OASIS.IN, bundle_size=2)
    comp.enddef()
    # The points as a 2-D C-ordered array: [i, j] is point i + n0 * j.
    n0 = 2 if len(point_ids) % 2 == 0 else 1
    received = numpy.full((n0, len(point_ids) // n0), -1.0)
    received_ids = point_ids.reshape(received.shape, order="F")
    for t in range(0, STEPS * DT, DT):
        coupling = t % PERIOD == 0
        received.fill(-1.0)
        info = single.get(t, received)
        expect(info == (OASIS.RECVD if coupling else OASIS.OK), f"get of ASINGLE at {t}: {info}")
        want = value(received_ids, t) if coupling else numpy.full(received.shape, -1.0)
        expect(numpy.array_equal(received, want), f"values of ASINGLE at {t}")
        members = numpy.full((len(orange_ids), 2), -1.0, order="F")
        info = bundle.get(t, members)
        expect(info == (OASIS.RECVD if coupling else OASIS.OK), f"get of ABUNDLE at {t}: {info}")
        if coupling:
            want = numpy.stack([value(orange_ids, t, m) for m in range(2)], axis=-1)
            same = numpy.array_equal(members, want.astype(numpy.float32))
            expect(same, f"values of ABUNDLE at {t}")
    try:
        single.get(0, numpy.zeros(len(point_ids), dtype=numpy.int32))
        expect(False, "a get into int32 did not raise")
    except pyoasis.PyOasisException as e:
        expect("float64 or float32" in str(e), f"message of a wrong get: {e}")


def main():
    n1 = int(sys.argv[1])
    world = MPI.COMM_WORLD
    is_ocean = world.rank < n1
    comp = pyoasis.Component("ocean" if is_ocean else "atmos")
    expect(comp.localcomm.size == (n1 if is_ocean else world.size - n1), "localcomm size")
    (ocean if is_ocean else atmos)(comp, comp.localcomm.rank, comp.localcomm.size)
    # Collective over both components: an intracommunicator of both, the components in
    # the order of their names (atmos first).
    joined = comp.get_intracomm("atmos" if is_ocean else "ocean")
    rank = comp.localcomm.rank + (world.size - n1 if is_ocean else 0)
    expect(joined.size == world.size, f"get_intracomm: size {joined.size}")
    expect(joined.rank == rank, f"get_intracomm: rank {joined.rank}, expected {rank}")
    joined.Free()
    # The same with get_multi_intracomm, and the root of each component in it.
    joined, roots = comp.get_multi_intracomm(["ocean", "atmos"])
    expect(joined.size == world.size, f"get_multi_intracomm: size {joined.size}")
    expect(joined.rank == rank, f"get_multi_intracomm: rank {joined.rank}, expected {rank}")
    expected_roots = {"ocean": world.size - n1, "atmos": 0}
    expect(roots == expected_roots, f"get_multi_intracomm: roots {roots}, expected {expected_roots}")
    joined.Free()
    try:
        comp.get_multi_intracomm(["ocean", "ocean"])
        expect(False, "get_multi_intracomm with a name twice did not raise")
    except pyoasis.OasisException as e:
        expect("named twice" in str(e), f"get_multi_intracomm error: {e}")
    total = world.allreduce(len(failures))
    pyoasis.terminate()
    if world.rank == 0:
        verdict = "every value and info code as expected" if total == 0 else "FAILED"
        print(f"pyoasis pair: {verdict}")
    return 0 if total == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
