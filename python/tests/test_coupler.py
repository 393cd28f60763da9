"""ferry.Coupler from Python: put/get with periods, bundles, transforms, lags and
status flags, a worker-style analysis component, and a time-series buffer loaded and
read with NumPy arrays, each checked against values computed here. Component "atm"
runs on the first half of the ranks, "ocn" on the rest; a single rank runs both, one
after the other."""

import os
import sys

import numpy as np
import pytest
from coupler_config import exchange, write_config
from mpi4py import MPI

import ferry

NX, NY = 24, 10
N = NX * NY


class Components:
    """Which of atm and ocn this rank runs, and its rank inside each."""

    def __init__(self, comm):
        p, r = comm.size, comm.rank
        self.atm_size = 1 if p == 1 else (p + 1) // 2
        self.ocn_size = 1 if p == 1 else p - self.atm_size
        self.atm = p == 1 or r < self.atm_size
        self.ocn = p == 1 or r >= self.atm_size
        self.atm_rank = 0 if p == 1 else r
        self.ocn_rank = 0 if p == 1 else r - self.atm_size

    def names(self):
        return [name for name, runs in (("atm", self.atm), ("ocn", self.ocn)) if runs]


@pytest.fixture
def who(comm):
    return Components(comm)


def value_at(ids, t, members=1):
    """What atm puts at time t: shape (points,) or (points, members)."""
    v = ids[:, None] * 1000.0 + t / 100.0 + 0.125 * np.arange(members)
    return v[:, 0] if members == 1 else v


def partitions(coupler, who):
    """atm holds the grid in 2-D blocks, ocn dealt round-robin."""
    atm = ocn = None
    if who.atm:
        layout = ferry.Layout.box(NX, NY, 1, who.atm_size, who.atm_rank)
        atm = (
            coupler.def_partition(coupler.def_grid("atm", "agrid", NX, NY), "blocks", layout),
            layout,
        )
    if who.ocn:
        layout = ferry.Layout.round_robin(N, who.ocn_size, who.ocn_rank)
        ocn = (
            coupler.def_partition(coupler.def_grid("ocn", "ogrid", NX, NY), "cyclic", layout),
            layout,
        )
    return atm, ocn


def test_put_get_at_coupling_times_only(comm, who, shared_dir):
    config = write_config(comm, shared_dir, exchange("t", "field: t_atm", "field: t_ocn", 200))
    coupler = ferry.Coupler(comm, who.names(), config)
    atm, ocn = partitions(coupler, who)
    if who.atm:
        out = coupler.def_field(atm[0], "t_atm", "out", np.float64)
        assert coupler.field_values(out) == atm[1].local_size
    if who.ocn:
        into = coupler.def_field(ocn[0], "t_ocn", ferry.FieldDirection.IN, "float64")
    coupler.enddef()
    for t in range(0, 1000, 100):
        coupling = t % 200 == 0
        if who.atm:
            status = coupler.put(out, t, value_at(atm[1].ids, t))
            assert status == (ferry.Status.SENT if coupling else ferry.Status.NOTHING)
            assert isinstance(status, ferry.Status)
        if who.ocn:
            got = np.full(ocn[1].local_size, -1.0)
            status = coupler.get(into, t, got)
            assert status == (ferry.Status.RECEIVED if coupling else ferry.Status.NOTHING)
            np.testing.assert_array_equal(got, value_at(ocn[1].ids, t) if coupling else -1.0)
    coupler.finalize()


def test_bundle_and_average(comm, who, shared_dir):
    config = write_config(
        comm,
        shared_dir,
        exchange("levels", "field: temp3d", "field: temp3d_in", 100)
        + exchange("mean", "field: flux", "field: flux_in", 300, "    transform: average\n"),
        length=1200,
    )
    coupler = ferry.Coupler(comm, who.names(), config)
    atm, ocn = partitions(coupler, who)
    if who.atm:
        levels = coupler.def_field(atm[0], "temp3d", "out", np.float32, bundle=3)
        flux = coupler.def_field(atm[0], "flux", "out", np.float64)
        assert coupler.field_values(levels) == 3 * atm[1].local_size
    if who.ocn:
        levels_in = coupler.def_field(ocn[0], "temp3d_in", "in", np.float32, bundle=3)
        flux_in = coupler.def_field(ocn[0], "flux_in", "in", np.float64)
    coupler.enddef()

    def flux_at(ids, t):
        return ids + [0.0, 7.0, 2.0][(t // 100) % 3]  # not monotonic in time

    for t in range(0, 1200, 100):
        if who.atm:
            assert (
                coupler.put(levels, t, value_at(atm[1].ids, t, 3).astype(np.float32))
                == ferry.Status.SENT
            )
            status = coupler.put(flux, t, flux_at(atm[1].ids.astype(np.float64), t))
            assert status == (ferry.Status.SENT if t % 300 == 0 else ferry.Status.TRANSFORMED)
        if who.ocn:
            got = np.empty((ocn[1].local_size, 3), dtype=np.float32)
            assert coupler.get(levels_in, t, got) == ferry.Status.RECEIVED
            np.testing.assert_array_equal(got, value_at(ocn[1].ids, t, 3).astype(np.float32))
            if t % 300 == 0:
                mean = np.empty(ocn[1].local_size)
                assert coupler.get(flux_in, t, mean) == ferry.Status.RECEIVED
                window = range(max(0, t - 200), t + 1, 100)  # the puts of (t - 300, t]
                expected = sum(flux_at(ocn[1].ids.astype(np.float64), s) for s in window) / len(
                    window
                )
                np.testing.assert_array_equal(mean, expected)
    coupler.finalize()


def test_lag_flags_a_value_put_before_the_run(comm, who, shared_dir):
    lagged = exchange("lagged", "field: l_atm", "field: l_ocn", 200, "    lag: 100\n")
    coupler = ferry.Coupler(comm, who.names(), write_config(comm, shared_dir, lagged, length=600))
    atm, ocn = partitions(coupler, who)
    if who.atm:
        out = coupler.def_field(atm[0], "l_atm", "out", np.int64)
    if who.ocn:
        into = coupler.def_field(ocn[0], "l_ocn", "in", np.int64)
    coupler.enddef()
    # A get at t receives the put of t - lag; the first one the source puts at start - lag.
    if who.atm:
        assert coupler.put(out, -100, 10 * atm[1].ids - 100) == ferry.Status.SENT
    for t in range(0, 600, 100):
        if who.ocn and t % 200 == 0:
            got = np.empty(ocn[1].local_size, dtype=np.int64)
            before_run = ferry.Status.FROM_RESTART if t == 0 else ferry.Status.NOTHING
            assert coupler.get(into, t, got) == ferry.Status.RECEIVED | before_run
            np.testing.assert_array_equal(got, 10 * ocn[1].ids + t - 100)
        if who.atm:
            coupler.put(out, t, 10 * atm[1].ids + t)
    coupler.finalize()


def test_analysis_component_gets_fields_into_numpy(comm, shared_dir):
    # A model on the first ranks puts two fields every hour; an analysis component
    # written in Python, on the last rank, gets them and reduces over its own ranks.
    p = comm.size
    analysis = p == 1 or comm.rank == p - 1
    model = p == 1 or not analysis
    model_size = max(1, p - 1)
    config = write_config(
        comm,
        shared_dir,
        "  - name: state\n    source: {component: model, fields: [temperature, salinity]}\n"
        "    target: {component: analysis, fields: [t, s]}\n    period: 3600\n",
        length=4 * 3600,
    )
    names = (["model"] if model else []) + (["analysis"] if analysis else [])
    coupler = ferry.Coupler(comm, names, config)
    if model:
        layout = ferry.Layout.block(N, model_size, comm.rank if p > 1 else 0)
        part = coupler.def_partition(coupler.def_grid("model", "mesh", N), "blocks", layout)
        temperature = coupler.def_field(part, "temperature", "out", np.float64)
        salinity = coupler.def_field(part, "salinity", "out", np.float64)
    if analysis:
        local = coupler.local_comm("analysis")
        assert isinstance(local, MPI.Intracomm) and local.size == 1
        with pytest.MonkeyPatch.context() as without_mpi4py:
            without_mpi4py.setitem(sys.modules, "mpi4py.MPI", None)
            # The Fortran handle, named as such.
            assert coupler.local_comm("analysis") == ferry.FortranComm(local.py2f())
        mine = ferry.Layout.block(N, local.size, local.rank)
        part = coupler.def_partition(coupler.def_grid("analysis", "mesh", N), "all", mine)
        t_in = coupler.def_field(part, "t", "in", np.float64)
        s_in = coupler.def_field(part, "s", "in", np.float64)
        t_values, s_values = np.empty(mine.local_size), np.empty(mine.local_size)
    coupler.enddef()
    for step in range(4):
        time = 3600.0 * step
        if model:
            coupler.put(temperature, time, 280.0 + 0.01 * layout.ids + step)
            coupler.put(salinity, time, np.full(layout.local_size, 35.0 + step))
        if analysis:
            assert coupler.get(t_in, time, t_values) == ferry.Status.RECEIVED
            assert coupler.get(s_in, time, s_values) == ferry.Status.RECEIVED
            mean = local.allreduce(t_values.sum()) / N
            assert mean == pytest.approx(280.0 + 0.01 * (N - 1) / 2 + step, rel=1e-14)
            assert local.allreduce(s_values.max(), op=MPI.MAX) == 35.0 + step
    coupler.finalize()


def test_mismatched_arrays_and_calls_out_of_order(comm, who, shared_dir):
    config = write_config(comm, shared_dir, exchange("t", "field: t_atm", "field: t_ocn", 200))
    coupler = ferry.Coupler(comm, who.names(), config)
    atm, ocn = partitions(coupler, who)
    with pytest.raises(ferry.Error) as error:
        coupler.def_field((atm or ocn)[0], "x", "sideways", np.float64)
    assert error.value.code == ferry.Errc.ARG and 'direction "sideways"' in str(error.value)
    if who.atm:
        out = coupler.def_field(atm[0], "t_atm", "out", np.float64)
    if who.ocn:
        into = coupler.def_field(ocn[0], "t_ocn", "in", np.float64)
    coupler.enddef()
    if who.atm:
        n = atm[1].local_size
        with pytest.raises(ferry.Error) as error:
            coupler.put(out, 0, np.zeros(n - 1))
        assert error.value.code == ferry.Errc.ARG_SIZE
        assert str(error.value).startswith(
            f'Coupler.put: field "t_atm" has {n - 1} values on rank {comm.rank}, expected {n} ({n} points)'
        )
        with pytest.raises(ferry.Error) as error:
            coupler.put(out, 0, np.zeros(n, dtype=np.float32))
        assert error.value.code == ferry.Errc.ARG and "dtype float32" in str(error.value)
        coupler.put(out, 0, value_at(atm[1].ids, 0))
    if who.ocn:
        coupler.get(into, 0, np.empty(ocn[1].local_size))
    coupler.finalize()
    if who.atm:
        with pytest.raises(ferry.Error) as error:
            coupler.put(out, 200, value_at(atm[1].ids, 200))
        assert error.value.code == ferry.Errc.STATE


def test_grid_metadata_of_a_partition(comm, who, shared_dir):
    # Centres, corners, areas and mask of this rank's points, computed from the ids
    # (a regular NX x NY grid); then the size, dtype and order checks.
    config = write_config(comm, shared_dir, exchange("t", "field: t_atm", "field: t_ocn", 200))
    coupler = ferry.Coupler(comm, who.names(), config)
    atm, ocn = partitions(coupler, who)
    part, layout = atm or ocn
    n = layout.local_size
    assert coupler.partition_points(part) == n
    ids = layout.ids
    lon = (ids % NX + 0.5) * 360.0 / NX
    lat = -90.0 + (ids // NX + 0.5) * 180.0 / NY
    half_lon, half_lat = 180.0 / NX, 90.0 / NY
    corner_lon = lon[:, None] + half_lon * np.array([-1.0, 1.0, 1.0, -1.0])
    corner_lat = lat[:, None] + half_lat * np.array([-1.0, -1.0, 1.0, 1.0])
    coupler.set_coordinates(part, lon, lat)
    coupler.set_corners(part, 4, corner_lon, corner_lat)
    coupler.set_areas(part, np.cos(np.radians(lat)))
    coupler.set_mask(part, (ids % 3 != 0).astype(np.int32))

    def error_of(call, *args):
        with pytest.raises(ferry.Error) as error:
            call(part, *args)
        return error.value

    short = error_of(coupler.set_coordinates, lon, lat[:-1])
    assert short.code == ferry.Errc.ARG_SIZE
    assert str(short).startswith(
        f"Coupler.set_coordinates: lat has {n - 1} values on rank {comm.rank}"
    )
    flat = error_of(coupler.set_corners, 4, corner_lon.ravel(), corner_lat.ravel())
    assert flat.code == ferry.Errc.ARG_SIZE and "Coupler.set_corners: lon" in str(flat)
    few = error_of(coupler.set_corners, 2, corner_lon[:, :2].copy(), corner_lat[:, :2].copy())
    assert few.code == ferry.Errc.ARG and "at least 3 corners" in str(few)
    strided = error_of(coupler.set_areas, np.ones(2 * n)[::2])
    assert strided.code == ferry.Errc.ARG and "Coupler.set_areas: area" in str(strided)
    boolean = error_of(coupler.set_mask, ids % 3 != 0)
    assert boolean.code == ferry.Errc.ARG and "Coupler.set_mask: mask" in str(boolean)
    if who.atm:
        coupler.def_field(atm[0], "t_atm", "out", np.float64)
    if who.ocn:
        coupler.def_field(ocn[0], "t_ocn", "in", np.float64)
    coupler.enddef()
    late = error_of(coupler.set_areas, np.ones(n))
    assert late.code == ferry.Errc.STATE and "only allowed before enddef" in str(late)
    coupler.finalize()


def test_configuration_errors_are_the_same_on_every_rank(comm, who, shared_dir):
    config = write_config(comm, shared_dir, exchange("t", "field: t_atm", "field: t_ocn", 200))
    with pytest.raises(ferry.Error) as error:
        ferry.Coupler(comm, who.names(), os.path.join(shared_dir, "missing.yaml"))
    assert error.value.code == ferry.Errc.IO
    coupler = ferry.Coupler(comm, who.names(), config)
    partitions(coupler, who)  # but no fields: the configuration's are undeclared
    with pytest.raises(ferry.Error) as error:
        coupler.enddef()
    assert error.value.code == ferry.Errc.ARG and "coupling.yaml:" in str(error.value)
    assert comm.allgather(str(error.value)) == [str(error.value)] * comm.size


def test_buffer_steps_are_read_back_exactly(comm, who, shared_dir):
    # Buffer "history" from atm's t (whole rows per rank) to ocn's t_in (columns per
    # rank): atm loads ten steps, ocn reads them, at most four per read. Its source
    # and target run on disjoint ranks: on one rank, enddef refuses it.
    history = (
        "  - name: history\n    source: {component: atm, field: t}\n"
        "    target: {component: ocn, field: t_in}\n    capacity: 3\n    mode: lossless\n"
    )
    coupler = ferry.Coupler(comm, who.names(), write_config(comm, shared_dir, "", buffers=history))
    if who.atm:
        layout = ferry.Layout.box(NX, NY, 1, who.atm_size, who.atm_rank)
        part = coupler.def_partition(coupler.def_grid("atm", "agrid", NX, NY), "rows", layout)
        coupler.def_field(part, "t", "out", np.float64)
    if who.ocn:
        layout = ferry.Layout.box(NX, NY, who.ocn_size, 1, who.ocn_rank)
        part = coupler.def_partition(coupler.def_grid("ocn", "ogrid", NX, NY), "columns", layout)
        coupler.def_field(part, "t_in", "in", np.float64)
    if comm.size == 1:
        with pytest.raises(ferry.Error) as error:
            coupler.enddef()
        assert error.value.code == ferry.Errc.ARG
        assert "a buffer's source and target run on disjoint ranks" in str(error.value)
        return
    coupler.enddef()
    n = layout.local_size
    assert coupler.buffer_values("history") == n
    with pytest.raises(ferry.Error) as error:
        coupler.buffer_values("histroy")
    assert error.value.code == ferry.Errc.ARG and 'did you mean "history"?' in str(error.value)

    def value_at(step):
        return layout.ids * 1000.0 + step

    steps = 10
    if who.atm:
        for step in range(steps):
            coupler.load("history", value_at(step), step)
        with pytest.raises(ferry.Error) as error:
            coupler.load("history", value_at(steps)[:-1], steps)
        assert error.value.code == ferry.Errc.ARG_SIZE
        assert str(error.value).startswith(
            f'Coupler.load: the array for buffer "history" has {n - 1} values on rank {comm.rank}, '
            f"expected {n} ({n} points)"
        )
        with pytest.raises(ferry.Error) as error:
            coupler.load("history", value_at(steps).astype(np.float32), steps)
        assert error.value.code == ferry.Errc.ARG and "dtype float32" in str(error.value)
    else:
        with pytest.raises(ferry.Error) as error:
            coupler.load("history", value_at(0), 0)
        assert error.value.code == ferry.Errc.STATE and 'does not load buffer "history"' in str(
            error.value
        )
        # Collective over the ocn ranks: each fails alike, and the stream goes on.
        with pytest.raises(ferry.Error) as error:
            coupler.read("history", np.empty((4, n + 1)))
        assert error.value.code == ferry.Errc.ARG_SIZE
        assert str(error.value).startswith(
            f'Coupler.read: the output array of buffer "history" on rank {comm.rank} has shape '
            f"(4, {n + 1}), expected numpy.empty((n, {n}), dtype=numpy.float64)"
        )
        # Every step is read before anything is checked: a reader that stopped early
        # would leave the source waiting for it, and every rank for finalize.
        out = np.empty((4, n))
        reads = []
        while sum(len(values) for values, *_ in reads) < steps:
            # A new array the first time, then `out`, written in place.
            values, first, lost = coupler.read("history", out if reads else 4)
            if len(values) == 0:
                break
            shared = np.shares_memory(values, out)
            reads.append((values.copy(), first, lost, coupler.read_steps("history"), shared))
    coupler.finalize()
    if who.ocn:
        seen = []
        for values, first, lost, read, shared in reads:
            assert 1 <= len(values) <= 4 and values.shape[1:] == (n,)
            assert shared == bool(seen)
            assert first == len(seen) and lost == 0
            assert read.tolist() == list(range(first, first + len(values)))
            for s, step in enumerate(read):
                np.testing.assert_array_equal(values[s], value_at(step))
            seen.extend(read.tolist())
        assert seen == list(range(steps))
