"""ferry.Weights and ferry.Remap: regridding NumPy fields in parallel.

Every destination value is checked against a reference computed here from the weights'
own links, or against the same remap on one rank (mode "bfb" promises the same bits
for any number of ranks and any layouts).
"""

import os

import numpy as np
import pytest
from agreed_errors import raises_everywhere
from lonlat_grids import centres, corners
from mpi4py import MPI

import ferry

SRC_NX, SRC_NY = 36, 18  # 10-degree cell centres
DST_NX, DST_NY = 24, 12  # 15-degree cell centres


def points(layout, nx, ny):
    lon, lat = centres(nx, ny)
    return ferry.GridPoints(layout, lon[layout.ids], lat[layout.ids])


def cells(layout, nx, ny):
    lon, lat = corners(nx, ny)
    return ferry.GridCells(layout, lon[layout.ids], lat[layout.ids])


def field(ids):
    """The source field: a smooth function of the global id."""
    return np.sin(0.37 * ids) + 0.001 * ids


def layouts(comm):
    src = ferry.Layout.block(SRC_NX * SRC_NY, comm.size, comm.rank)
    dst = ferry.Layout.random(DST_NX * DST_NY, comm.size, comm.rank, seed=5)
    return src, dst


def bilinear(comm, src, dst):
    return ferry.bilinear_weights(
        comm, points(src, SRC_NX, SRC_NY), points(dst, DST_NX, DST_NY), nx=SRC_NX
    )


def reference(comm, weights, values_of, dst_ids):
    """Each row summed here in link order, gathered, at the points `dst_ids`."""
    rows = weights.first_row + np.arange(weights.row_count)
    sums = np.zeros(weights.row_count)
    for r in range(weights.row_count):
        links = slice(weights.row_start[r], weights.row_start[r + 1])
        total = 0.0
        for w, c in zip(weights.values[links], weights.cols[links]):
            total += w * values_of(c)
        sums[r] = total
    everything = np.zeros(weights.dst_size)
    for ids, values in comm.allgather((rows, sums)):
        everything[ids] = values
    return everything[dst_ids]


def remapped(comm, weights, src, dst, **options):
    remap = ferry.Remap(comm, weights, src, dst, **options)
    got = np.full(dst.local_size, -1.0)
    remap.apply(field(src.ids), got)
    return got


@pytest.mark.parametrize("map_on", ["dst", "src", ferry.MapOn.SRC])
def test_bilinear_remap_sums_every_row_like_the_links_say(comm, map_on):
    src, dst = layouts(comm)
    weights = bilinear(comm, src, dst)
    assert (weights.src_size, weights.dst_size) == (SRC_NX * SRC_NY, DST_NX * DST_NY)
    assert weights.global_links == comm.allreduce(len(weights.values))
    got = remapped(comm, weights, src, dst, map_on=map_on)
    np.testing.assert_array_equal(got, reference(comm, weights, field, dst.ids))


def test_bilinear_four_nearest_fills_every_row_with_weights_summing_to_one(comm):
    """unmapped="four_nearest" (OASIS's BILINEAR): the points in a cell with a masked
    corner get the inverse-distance weights of the valid ones of their 4 nearest
    source points, the others keep their bilinear weights."""
    src, dst = layouts(comm)
    lon, lat = centres(SRC_NX, SRC_NY)
    mask = (lat[src.ids] > -30).astype(np.int32)  # the south masked
    source = ferry.GridPoints(src, lon[src.ids], lat[src.ids], mask=mask)
    target = points(dst, DST_NX, DST_NY)
    plain = ferry.bilinear_weights(comm, source, target, nx=SRC_NX)
    filled = ferry.bilinear_weights(comm, source, target, nx=SRC_NX, unmapped="four_nearest")
    assert np.all(np.diff(filled.row_start) > 0)
    assert comm.allreduce(int(np.sum(np.diff(plain.row_start) == 0))) > 0
    sums = np.add.reduceat(filled.values, filled.row_start[:-1]) if filled.row_count else []
    np.testing.assert_allclose(sums, 1.0, rtol=1e-14)


def test_bicubic_weights_reproduce_a_field_linear_in_the_indices(comm):
    # f = 3 i + 2 j + 1 on the source grid: its index gradients are 3, 2 and 0, and
    # the bicubic interpolant of a field linear in (i, j) is that field at (i + a, j +
    # b), so the gradient weights given those gradients and the weights with gradients
    # made from the field (exact for it away from the wrap and the outermost rows)
    # agree at every point whose cell keeps off the date line and the two outer rows.
    src, dst = layouts(comm)
    source, target = points(src, SRC_NX, SRC_NY), points(dst, DST_NX, DST_NY)
    ids = src.ids
    f = 3.0 * (ids % SRC_NX) + 2.0 * (ids // SRC_NX) + 1
    value, di, dj, dij = ferry.bicubic_gradient_weights(comm, source, target, SRC_NX)
    assert value.global_links == di.global_links == dj.global_links == dij.global_links

    def apply(weights, x):
        out = np.zeros(dst.local_size)
        ferry.Remap(comm, weights, src, dst).apply(x, out)
        return out

    given = apply(value, f) + apply(di, np.full(src.local_size, 3.0)) + apply(
        dj, np.full(src.local_size, 2.0)
    )
    made = apply(ferry.bicubic_weights(comm, source, target, SRC_NX), f)
    lon, lat = centres(DST_NX, DST_NY)
    inside = (np.abs(lat[dst.ids]) < 90 - 2 * 180 / SRC_NY) & (lon[dst.ids] % 360 > 15) & (
        lon[dst.ids] % 360 < 345
    )
    np.testing.assert_allclose(made[inside], given[inside], rtol=0, atol=1e-12)


@pytest.mark.parametrize("engine", ["p2p", "alltoallv"])
@pytest.mark.parametrize("map_on", ["dst", "src"])
def test_bfb_gives_the_bits_of_one_rank(comm, engine, map_on):
    src, dst = layouts(comm)
    got = remapped(comm, bilinear(comm, src, dst), src, dst, map_on=map_on, engine=engine)
    # The same remap on this rank alone, every point here.
    alone = MPI.COMM_SELF
    whole_src = ferry.Layout.block(SRC_NX * SRC_NY, 1, 0)
    whole_dst = ferry.Layout.block(DST_NX * DST_NY, 1, 0)
    serial = remapped(alone, bilinear(alone, whole_src, whole_dst), whole_src, whole_dst)
    assert got.tobytes() == serial[dst.ids].tobytes()


def test_nearest_neighbour_on_the_same_points_copies_every_value(comm):
    src = ferry.Layout.block(SRC_NX * SRC_NY, comm.size, comm.rank)
    dst = ferry.Layout.random(SRC_NX * SRC_NY, comm.size, comm.rank, seed=3)
    weights = ferry.nearest_neighbour_weights(
        comm, points(src, SRC_NX, SRC_NY), points(dst, SRC_NX, SRC_NY), neighbours=1
    )
    np.testing.assert_array_equal(remapped(comm, weights, src, dst), field(dst.ids))


def test_masked_neighbours_dropped_gives_short_and_nearest_valid_rows(comm):
    """masked_neighbours="drop" (OASIS's DISTWGT): rows by the masked south keep only
    their valid ones of the 4 nearest, rows deep in it take the nearest valid point."""
    src, dst = layouts(comm)
    lon, lat = centres(SRC_NX, SRC_NY)
    mask = (lat[src.ids] > -30 + lon[src.ids] % 360 / 10).astype(np.int32)  # a slanted coast
    source = ferry.GridPoints(src, lon[src.ids], lat[src.ids], mask=mask)
    target = points(dst, DST_NX, DST_NY)
    skipped = ferry.nearest_neighbour_weights(comm, source, target)
    dropped = ferry.nearest_neighbour_weights(comm, source, target, masked_neighbours="drop")
    assert np.all(np.diff(skipped.row_start) == 4)
    counts = np.diff(dropped.row_start)
    assert comm.allreduce(int(np.sum((counts > 1) & (counts < 4)))) > 0
    assert comm.allreduce(int(np.sum(counts == 1))) > 0
    valid = np.zeros(SRC_NX * SRC_NY, dtype=bool)
    for ids, m in comm.allgather((src.ids, mask)):
        valid[ids] = m != 0
    assert np.all(valid[dropped.cols])
    sums = np.add.reduceat(dropped.values, dropped.row_start[:-1]) if dropped.row_count else []
    np.testing.assert_allclose(sums, 1.0, rtol=1e-14)
    raises_everywhere(
        ferry.Errc.ARG,
        "masked_neighbours is 'maybe'",
        lambda: ferry.nearest_neighbour_weights(comm, source, target, masked_neighbours="maybe"),
    )


def test_drop_no_fill_and_gaussian_of_neighbour_spacing(comm):
    """masked_neighbours="drop_no_fill" (OASIS's DISTWGTNF) leaves the rows deep in the
    masked south empty where "drop" fills them; gaussian_scale="neighbours" (OASIS's
    GAUSWGT) drops the same masked points and its rows add up to one."""
    src, dst = layouts(comm)
    lon, lat = centres(SRC_NX, SRC_NY)
    mask = (lat[src.ids] > -30 + lon[src.ids] % 360 / 10).astype(np.int32)
    source = ferry.GridPoints(src, lon[src.ids], lat[src.ids], mask=mask)
    target = points(dst, DST_NX, DST_NY)
    filled = ferry.nearest_neighbour_weights(comm, source, target, masked_neighbours="drop")
    unfilled = ferry.nearest_neighbour_weights(
        comm, source, target, masked_neighbours="drop_no_fill"
    )
    empty = comm.allreduce(int(np.sum(np.diff(unfilled.row_start) == 0)))
    assert empty > 0
    assert comm.allreduce(int(np.sum(np.diff(filled.row_start) == 0))) == 0
    gaussian = ferry.nearest_neighbour_weights(
        comm,
        source,
        target,
        weighting="gaussian",
        gaussian_variance=0.3,
        gaussian_scale="neighbours",
        masked_neighbours="drop_no_fill",
    )
    np.testing.assert_array_equal(gaussian.row_start, unfilled.row_start)
    np.testing.assert_array_equal(gaussian.cols, unfilled.cols)
    starts = gaussian.row_start[:-1][np.diff(gaussian.row_start) > 0]
    sums = np.add.reduceat(gaussian.values, starts) if starts.size else []
    np.testing.assert_allclose(sums, 1.0, rtol=0, atol=1e-14)
    raises_everywhere(
        ferry.Errc.ARG,
        "gaussian_scale is 'pairs'",
        lambda: ferry.nearest_neighbour_weights(
            comm, source, target, weighting="gaussian", gaussian_scale="pairs"
        ),
    )


def test_gaussian_weights_of_a_row_add_up_to_one(comm):
    src, dst = layouts(comm)
    weights = ferry.nearest_neighbour_weights(
        comm,
        points(src, SRC_NX, SRC_NY),
        points(dst, DST_NX, DST_NY),
        neighbours=4,
        weighting="gaussian",
        gaussian_variance=0.5,
    )
    assert np.all(np.diff(weights.row_start) == 4)
    sums = np.add.reduceat(weights.values, weights.row_start[:-1]) if weights.row_count else []
    np.testing.assert_allclose(sums, 1.0, rtol=0, atol=1e-14)


def test_conservative_weights_keep_a_constant_and_the_integral(comm):
    src, dst = layouts(comm)
    weights = ferry.conservative_weights(
        comm, cells(src, SRC_NX, SRC_NY), cells(dst, DST_NX, DST_NY)
    )
    remap = ferry.Remap(comm, weights, src, dst)
    ones = np.full(dst.local_size, -1.0)
    remap.apply(np.ones(src.local_size), ones)
    np.testing.assert_allclose(ones, 1.0, rtol=0, atol=1e-14)

    # Area-weighted sums agree: the destination grid covers the source grid exactly.
    def area(nx, ny, ids):
        lat = np.radians(-90.0 + np.arange(ny + 1) * 180.0 / ny)
        return (2 * np.pi / nx) * (np.sin(lat[1:]) - np.sin(lat[:-1]))[ids // nx]

    got = np.zeros(dst.local_size)
    remap.apply(field(src.ids), got)
    source_integral = comm.allreduce(np.sum(area(SRC_NX, SRC_NY, src.ids) * field(src.ids)))
    integral = comm.allreduce(np.sum(area(DST_NX, DST_NY, dst.ids) * got))
    assert integral == pytest.approx(source_integral, rel=1e-12)


def mean_latitude(nx, ny, ids):
    """The mean latitude (radians) over each cell of a regular grid."""
    edges = np.radians(-90.0 + np.arange(ny + 1) * 180.0 / ny)
    s, n = edges[ids // nx], edges[ids // nx + 1]
    return (n * np.sin(n) + np.cos(n) - s * np.sin(s) - np.cos(s)) / (np.sin(n) - np.sin(s))


def test_second_order_conservative_weights_remap_latitude_exactly(comm):
    # A field equal to the latitude (radians) at each source cell's centroid, with its
    # gradient 1, through the three matrices, and through order 2 with the gradients
    # made from the field: each destination cell's mean latitude.
    src, dst = layouts(comm)

    src_cells, dst_cells = cells(src, SRC_NX, SRC_NY), cells(dst, DST_NX, DST_NY)
    value, lat_gradient, lon_gradient = ferry.conservative_gradient_weights(
        comm, src_cells, dst_cells
    )
    assert value.global_links == lat_gradient.global_links == lon_gradient.global_links
    exact = mean_latitude(DST_NX, DST_NY, dst.ids)
    got = np.zeros(dst.local_size)
    ferry.Remap(comm, value, src, dst).apply(mean_latitude(SRC_NX, SRC_NY, src.ids), got)
    slope = np.zeros(dst.local_size)
    ferry.Remap(comm, lat_gradient, src, dst).apply(np.ones(src.local_size), slope)
    np.testing.assert_allclose(got + slope, exact, rtol=0, atol=1e-13)

    second = ferry.conservative_weights(comm, src_cells, dst_cells, order=2)
    assert second.global_links > value.global_links  # the neighbours' links too
    folded = np.zeros(dst.local_size)
    ferry.Remap(comm, second, src, dst).apply(mean_latitude(SRC_NX, SRC_NY, src.ids), folded)
    np.testing.assert_allclose(folded, exact, rtol=0, atol=1e-13)
    raises_everywhere(
        ferry.Errc.ARG,
        "order is 3",
        lambda: ferry.conservative_weights(comm, src_cells, dst_cells, order=3),
    )


def gathered_rows(comm, weights):
    """Every row's links over all ranks: {row: (cols, values)}."""
    rows = {}
    for first, start, cols, values in comm.allgather(
        (weights.first_row, weights.row_start.copy(), weights.cols.copy(), weights.values.copy())
    ):
        for r in range(len(start) - 1):
            links = slice(start[r], start[r + 1])
            rows[first + r] = (cols[links], values[links])
    return rows


def within_cross(first, second, periodic):
    """Every link of a row of `second` comes from a source cell of that row of `first`
    or one of its neighbours (i +- 1, j), (i, j +- 1), across the ends of the rows
    where `periodic`: the stencil of centred differences."""
    for row, (cols, _) in second.items():
        sources = first[row][0]
        di = np.abs(cols[:, None] % SRC_NX - sources[None, :] % SRC_NX)
        if periodic:
            di = np.minimum(di, SRC_NX - di)
        dj = np.abs(cols[:, None] // SRC_NX - sources[None, :] // SRC_NX)
        if not np.all(np.any(di + dj <= 1, axis=1)):
            return False
    return True


def test_second_order_centred_differences_with_nx(comm):
    """nx (and periodic) give SCRIP's centred differences: each row links the cross
    stencil around its first-order sources (least squares reaches the diagonals),
    wrapping across the ends of the rows only where periodic; a field linear in
    latitude is still remapped exactly; the same bits as all cells on one rank."""
    src, dst = layouts(comm)
    src_cells, dst_cells = cells(src, SRC_NX, SRC_NY), cells(dst, DST_NX, DST_NY)

    def second(comm, s, d, **options):
        return ferry.conservative_weights(comm, s, d, order=2, unmapped="nearest", **options)

    centred = second(comm, src_cells, dst_cells, nx=SRC_NX)
    first = gathered_rows(comm, ferry.conservative_weights(comm, src_cells, dst_cells))
    got = gathered_rows(comm, centred)
    assert within_cross(first, got, periodic=True)
    assert not within_cross(first, got, periodic=False)
    squares = gathered_rows(comm, second(comm, src_cells, dst_cells))
    assert not within_cross(first, squares, periodic=True)
    open_rows = gathered_rows(comm, second(comm, src_cells, dst_cells, nx=SRC_NX, periodic=False))
    assert within_cross(first, open_rows, periodic=False)

    remapped_latitude = np.zeros(dst.local_size)
    ferry.Remap(comm, centred, src, dst).apply(
        mean_latitude(SRC_NX, SRC_NY, src.ids), remapped_latitude
    )
    np.testing.assert_allclose(
        remapped_latitude, mean_latitude(DST_NX, DST_NY, dst.ids), rtol=0, atol=1e-13
    )

    whole_src = ferry.Layout.block(SRC_NX * SRC_NY, 1, 0)
    whole_dst = ferry.Layout.block(DST_NX * DST_NY, 1, 0)
    alone = second(
        MPI.COMM_SELF,
        cells(whole_src, SRC_NX, SRC_NY),
        cells(whole_dst, DST_NX, DST_NY),
        nx=SRC_NX,
    )
    alone_rows = gathered_rows(MPI.COMM_SELF, alone)
    assert got.keys() == alone_rows.keys()
    for row, (cols, values) in got.items():
        np.testing.assert_array_equal(cols, alone_rows[row][0])
        np.testing.assert_array_equal(values, alone_rows[row][1])  # bit for bit

    last = comm.size - 1
    raises_everywhere(
        ferry.Errc.ARG,
        "nx is 7 for a source grid of 648 cells",
        lambda: second(comm, src_cells, dst_cells, nx=7 if comm.rank == last else SRC_NX),
        rank=last,
    )
    raises_everywhere(
        ferry.Errc.ARG,
        "nx is 1 for a source grid of 648 cells",
        lambda: second(comm, src_cells, dst_cells, nx=1),
    )


def test_conservative_progress_reports_start_to_end_and_stops_everywhere(comm):
    src, dst = layouts(comm)
    src_cells, dst_cells = cells(src, SRC_NX, SRC_NY), cells(dst, DST_NX, DST_NY)
    reports = []
    weights = ferry.conservative_weights(
        comm, src_cells, dst_cells, progress=lambda *report: reports.append(report)
    )
    plain = ferry.conservative_weights(comm, src_cells, dst_cells)
    assert np.array_equal(weights.values, plain.values)
    assert reports[0][:2] == ("overlaps", 0)
    stage, done, total, seconds = reports[-1]
    assert done == total and seconds >= 0
    assert all(a[1] <= b[1] for a, b in zip(reports, reports[1:]))

    def stop_on_last_rank(stage, done, total, seconds):
        if comm.rank == comm.size - 1:
            raise KeyError("stop here")

    raises_everywhere(
        ferry.Errc.ARG,
        f"progress callback raised on rank {comm.size - 1}: .*stop here",
        lambda: ferry.conservative_gradient_weights(
            comm, src_cells, dst_cells, progress=stop_on_last_rank
        ),
    )


def test_links_from_any_share_give_the_rows_they_say(comm):
    # Row r: source points (3 r + j) mod size, weights (j + 1) / 6, summed in order j.
    src, dst = layouts(comm)
    n_src, n_dst = src.global_size, dst.global_size
    rows = np.repeat(np.arange(n_dst), 3)
    j = np.tile(np.arange(3), n_dst)
    cols = (3 * rows + j) % n_src
    values = (j + 1) / 6
    # In file order without orders, each rank a slab that may cut a row ...
    lo, hi = len(rows) * comm.rank // comm.size, len(rows) * (comm.rank + 1) // comm.size
    by_position = ferry.Weights.from_links(
        comm, n_src, n_dst, rows[lo:hi], cols[lo:hi], values[lo:hi]
    )
    # ... and rows dealt round robin, their links backwards, with orders.
    mine = np.flatnonzero(rows % comm.size == comm.rank)[::-1]
    ordered = ferry.Weights.from_links(
        comm, n_src, n_dst, rows[mine], cols[mine], values[mine], order=j[mine]
    )
    expected = np.zeros(dst.local_size)
    for k in range(3):
        expected += (k + 1) / 6 * field((3 * dst.ids + k) % n_src)
    for weights in (by_position, ordered):
        assert (weights.src_size, weights.dst_size, weights.global_links) == (
            n_src,
            n_dst,
            3 * n_dst,
        )
        got = remapped(comm, weights, src, dst)
        assert got.tobytes() == expected.tobytes()
    # Wrong on the last rank only: every rank raises that rank's error.
    two = [0, 1] if comm.rank == comm.size - 1 else [0]
    raises_everywhere(
        ferry.Errc.ARG_SIZE,
        r"must have the same length; got 1, 2, 1",
        lambda: ferry.Weights.from_links(comm, n_src, n_dst, [0], two, [1.0]),
    )


def test_weights_written_and_read_back_remap_the_same_bits(comm, shared_dir):
    src, dst = layouts(comm)
    weights = bilinear(comm, src, dst)
    path = os.path.join(shared_dir, "bilinear.nc")
    weights.write_scrip(comm, path)
    read = ferry.Weights.read(comm, path)
    assert (read.src_size, read.dst_size, read.global_links) == (
        weights.src_size,
        weights.dst_size,
        weights.global_links,
    )
    first = remapped(comm, weights, src, dst)
    assert remapped(comm, read, src, dst).tobytes() == first.tobytes()


def test_several_fields_float32_components_and_split_phase(comm):
    src, dst = layouts(comm)
    weights = bilinear(comm, src, dst)
    remap = ferry.Remap(comm, weights, src, dst, fields=[np.float64, (np.float32, 2)])
    assert remap.fields == [(np.dtype(np.float64), 1), (np.dtype(np.float32), 2)]
    pair = np.stack([field(src.ids), 2 * field(src.ids)], 1).astype(np.float32)
    got = [np.zeros(dst.local_size), np.zeros((dst.local_size, 2), np.float32)]
    remap.begin([field(src.ids), pair], got)
    remap.end()
    np.testing.assert_array_equal(got[0], reference(comm, weights, field, dst.ids))
    # float32 values are summed in double and rounded once.
    for c in range(2):
        expected = reference(comm, weights, lambda g, c=c: float(pair_value(g, c)), dst.ids)
        np.testing.assert_array_equal(got[1][:, c], expected.astype(np.float32))
    assert np.all(np.diff(remap.rows) > 0)
    assert set(remap.traffic()) == {"messages", "bytes", "rounds"}


def pair_value(g, c):
    return np.float32((1 + c) * field(np.int64(g)))


def test_masked_destination_points_keep_the_fill_value(comm):
    src, dst = layouts(comm)
    weights = bilinear(comm, src, dst)
    masked = dst.ids % 5 == 0
    got = remapped(comm, weights, src, dst, fill_value=-99.0, dst_mask=masked)
    assert np.all(got[masked] == -99.0)
    expected = reference(comm, weights, field, dst.ids)
    np.testing.assert_array_equal(got[~masked], expected[~masked])


def test_bad_arguments_fail_alike_on_every_rank(comm, shared_dir):
    src, dst = layouts(comm)
    weights = bilinear(comm, src, dst)
    # Wrong on the last rank only: every rank raises that rank's error.
    last = comm.rank == comm.size - 1
    try:
        ferry.Remap(comm, weights, src, dst, map_on="over" if last else "dst")
    except ferry.Error as error:
        assert error.code == ferry.Errc.ARG and error.rank == comm.size - 1
        assert 'map_on is \'over\'; use one of "src", "dst"' in str(error)
    else:
        pytest.fail("no ferry.Error raised")
    short = np.zeros(src.local_size + 1)
    raises_everywhere(
        ferry.Errc.ARG_SIZE,
        r"lon",
        lambda: ferry.bilinear_weights(
            comm,
            ferry.GridPoints(src, short, short) if last else points(src, SRC_NX, SRC_NY),
            points(dst, DST_NX, DST_NY),
            nx=SRC_NX,
        ),
    )
    raises_everywhere(
        ferry.Errc.ARG,
        r'weighting is .cubic.; use one of "inverse_distance", "gaussian"',
        lambda: ferry.nearest_neighbour_weights(
            comm, points(src, SRC_NX, SRC_NY), points(dst, DST_NX, DST_NY), weighting="cubic"
        ),
    )
    raises_everywhere(
        ferry.Errc.IO,
        r"Weights::read: cannot open .*missing\.nc.: No such file",
        lambda: ferry.Weights.read(comm, os.path.join(shared_dir, "missing.nc")),
    )
    raises_everywhere(
        ferry.Errc.ARG,
        r"field 0.*int32",
        lambda: ferry.Remap(comm, weights, src, dst, fields=[np.int32]),
    )
    remap = ferry.Remap(comm, weights, src, dst)
    raises_everywhere(
        ferry.Errc.ARG_SIZE,
        r"Remap.apply: destination field 0 has \d+ values",
        lambda: remap.apply(field(src.ids), np.zeros(dst.local_size + 1)),
    )


def rotated_corners(nx, ny, pole_lon, pole_lat):
    """Corners (degrees) of a regular grid seen from a pole at (pole_lon, pole_lat):
    curvilinear cells with great-circle edges, shape (nx * ny, 4)."""
    lon = np.radians(np.linspace(0, 360, nx + 1))
    lat = np.radians(np.linspace(-90, 90, ny + 1))
    i, j = np.meshgrid(np.arange(nx), np.arange(ny))
    i, j = i.ravel(), j.ravel()
    corner_lon = np.stack([lon[i], lon[i + 1], lon[i + 1], lon[i]], axis=1)
    corner_lat = np.stack([lat[j], lat[j], lat[j + 1], lat[j + 1]], axis=1)
    xyz = np.stack(
        [
            np.cos(corner_lat) * np.cos(corner_lon),
            np.cos(corner_lat) * np.sin(corner_lon),
            np.sin(corner_lat),
        ],
        axis=-1,
    )
    t, r = np.radians(90 - pole_lat), np.radians(pole_lon)
    x = xyz[..., 0] * np.cos(t) + xyz[..., 2] * np.sin(t)
    z = -xyz[..., 0] * np.sin(t) + xyz[..., 2] * np.cos(t)
    y = xyz[..., 1]
    x, y = x * np.cos(r) - y * np.sin(r), x * np.sin(r) + y * np.cos(r)
    return np.degrees(np.arctan2(y, x)), np.degrees(np.arctan2(z, np.hypot(x, y)))


def test_conservative_weights_on_curvilinear_cells(comm):
    """Great-circle cells with per-cell corner counts against lon-lat rectangles: a
    constant stays exact and every cell of both grids is fully covered."""
    lon, lat = rotated_corners(24, 12, 30, 50)
    # A fifth corner slot, unused: each cell says it has 4.
    lon = np.hstack([lon, np.zeros((len(lon), 1))])
    lat = np.hstack([lat, np.zeros((len(lat), 1))])
    src = ferry.Layout.random(len(lon), comm.size, comm.rank, seed=3)
    counts = np.full(len(src.ids), 4, dtype=np.int32)
    source = ferry.GridCells(
        src, lon[src.ids], lat[src.ids], corner_counts=counts, edges="great_circle", name="rotated"
    )
    dst = ferry.Layout.block(DST_NX * DST_NY, comm.size, comm.rank)
    weights = ferry.conservative_weights(comm, source, cells(dst, DST_NX, DST_NY))
    constant = reference(comm, weights, lambda c: 2.5, dst.ids)
    assert np.allclose(constant, 2.5, rtol=1e-14, atol=0)
    assert source.name == "rotated"


def test_bad_polygon_cells_fail_everywhere(comm):
    lon, lat = rotated_corners(24, 12, 30, 50)
    lon[5] = lon[5, [0, 2, 1, 3]]  # out of order
    lat[5] = lat[5, [0, 2, 1, 3]]
    src = ferry.Layout.block(len(lon), comm.size, comm.rank)
    dst = ferry.Layout.block(DST_NX * DST_NY, comm.size, comm.rank)
    raises_everywhere(
        ferry.Errc.ARG,
        'source grid "bad" cell 5 .* not given in order',
        lambda: ferry.conservative_weights(
            comm,
            ferry.GridCells(src, lon[src.ids], lat[src.ids], name="bad"),
            cells(dst, DST_NX, DST_NY),
        ),
    )


@pytest.mark.skipif(
    not os.path.exists(os.path.join(os.environ.get("FERRY_TEST_GRIDS_DIR", ""), "grids.nc")),
    reason="no OASIS example grids (FERRY_TEST_GRIDS_DIR)",
)
def test_read_grid_orca_and_lmdz(comm):
    """ORCA2 and LMDZ from OASIS's files, each rank a block; conservative both ways."""
    folder = os.environ["FERRY_TEST_GRIDS_DIR"]

    def grid(name):
        return ferry.read_grid(
            comm,
            os.path.join(folder, "grids.nc"),
            name=name,
            masks=os.path.join(folder, "masks.nc"),
            areas=os.path.join(folder, "areas.nc"),
        )

    torc, lmdz = grid("torc"), grid("lmdz")
    assert torc.nx == 182 and lmdz.nx == 96
    assert comm.allreduce(len(torc.area)) == 182 * 149
    weights = ferry.conservative_weights(comm, torc.cells, lmdz.cells)
    assert weights.global_links == 39193  # as cdo gencon finds


def test_unmapped_nearest_fills_every_valid_target(comm):
    """unmapped="nearest" (OASIS FRACNNEI): target cells over masked sources only take
    their nearest valid source cell, so every valid target row has a link."""
    src = ferry.Layout.block(SRC_NX * SRC_NY, comm.size, comm.rank)
    lon, lat = corners(SRC_NX, SRC_NY)
    mask = (lat[src.ids].mean(axis=1) > -30).astype(np.int32)  # the south masked
    source = ferry.GridCells(src, lon[src.ids], lat[src.ids], mask=mask)
    dst = ferry.Layout.block(DST_NX * DST_NY, comm.size, comm.rank)
    plain = ferry.conservative_weights(comm, source, cells(dst, DST_NX, DST_NY))
    filled = ferry.conservative_weights(
        comm, source, cells(dst, DST_NX, DST_NY), unmapped="nearest"
    )
    assert np.all(np.diff(filled.row_start) > 0)
    assert comm.allreduce(int(np.sum(np.diff(plain.row_start) == 0))) > 0
