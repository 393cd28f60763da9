"""ferry.global_sums and ferry.conserve: reproducible sums and conservation in Python.

Every value is a function of the global id, built from operations IEEE 754 rounds
correctly (+, -, *, /, powers of two), so the references below are computed here on
every rank with the same bits: math.fsum is correctly rounded, as "reprosum" is, and
"gather" adds in ascending id order. Results must match them bit for bit on any
number of ranks.
"""

import gc
import math
import os

import numpy as np
import pytest
from agreed_errors import raises_everywhere
from lonlat_grids import corners
from mpi4py import MPI

import ferry

N_TERMS = 101
N_SRC, N_DST = 37, 23


def terms(ids):
    """Terms of both signs spanning 18 decades: (-1)^g (1 + g/7) 2^((37 g mod 61) - 30)."""
    ids = np.asarray(ids, dtype=np.int64)
    sign = np.where(ids % 2 == 0, 1.0, -1.0)
    return sign * np.ldexp(1.0 + ids / 7.0, (37 * ids) % 61 - 30)


def fsum(values):
    return math.fsum(values.tolist())


def in_id_order(values):
    """The sum "gather" forms: 0 + x_0 + x_1 + ... in ascending id order."""
    total = 0.0
    for x in values.tolist():
        total += x
    return total


def bits(values):
    return np.asarray(values, dtype=np.float64).tobytes()


def term_layout(comm):
    return ferry.Layout.random(N_TERMS, comm.size, comm.rank, seed=7)


# ---------------------------------------------------------------------------------
# global_sums


@pytest.mark.parametrize("method", ["reprosum", ferry.SumMethod.REPROSUM])
def test_reprosum_is_the_correctly_rounded_sum_on_any_ranks(comm, method):
    layout = term_layout(comm)
    got = ferry.global_sums(comm, terms(layout.ids), method=method)
    assert got.dtype == np.float64 and got.shape == (1,)
    assert bits(got) == bits([fsum(terms(np.arange(N_TERMS)))])


@pytest.mark.parametrize("method", ["gather", ferry.SumMethod.GATHER])
def test_gather_adds_by_ascending_id_on_any_ranks(comm, method):
    layout = term_layout(comm)
    got = ferry.global_sums(comm, terms(layout.ids), method=method, ids=layout.ids)
    assert bits(got) == bits([in_id_order(terms(np.arange(N_TERMS)))])


@pytest.mark.parametrize("method", ["lsum8", "lsum16", "ddpdd", ferry.SumMethod.LSUM8])
def test_other_methods_are_within_their_rounding_bound(comm, method):
    layout = term_layout(comm)
    everything = terms(np.arange(N_TERMS))
    exact = fsum(everything)
    got = ferry.global_sums(comm, terms(layout.ids), method=method)
    # Double precision is the worst of the three: n u sum |x|.
    assert abs(got[0] - exact) <= N_TERMS * 2.0**-53 * np.sum(np.abs(everything))
    assert got[0] == pytest.approx(exact, rel=1e-12)


def test_columns_are_summed_apart_and_the_same_on_every_rank(comm):
    layout = term_layout(comm)

    def table(ids):
        return np.stack([terms(ids), 3.0 * terms(ids) + 1.0, -terms(ids) / 5.0], 1)

    everything = table(np.arange(N_TERMS))
    expected = [fsum(everything[:, k]) for k in range(3)]
    got = ferry.global_sums(comm, table(layout.ids))
    assert got.shape == (3,)
    assert bits(got) == bits(expected)
    assert comm.allgather(bits(got)) == [bits(got)] * comm.size
    gathered = ferry.global_sums(comm, table(layout.ids), "gather", ids=layout.ids)
    assert bits(gathered) == bits([in_id_order(everything[:, k]) for k in range(3)])
    # Any array-like of numbers is read as float64; the result is a fresh array.
    assert ferry.global_sums(comm, [[1, 2]] * layout.local_size).tolist() == [
        N_TERMS,
        2 * N_TERMS,
    ]


def test_sums_accept_none_or_empty_arrays_where_no_points_are_held(comm):
    # Every term on rank 0; the others pass None, (0,) or (0, 2) arrays.
    whole = ferry.Layout.block(N_TERMS, 1, 0) if comm.rank == 0 else ferry.Layout.none(N_TERMS)
    values = np.stack([terms(whole.ids), terms(whole.ids) * 2.0], 1)
    if comm.rank % 3 == 1:
        values = None
    elif comm.rank % 3 == 2:
        values = np.empty(0)
    everything = terms(np.arange(N_TERMS))
    for method, total in (("reprosum", fsum), ("gather", in_id_order)):
        got = ferry.global_sums(comm, values, method, ids=whole.ids)
        assert got.shape == (2,)
        assert bits(got) == bits([total(everything), total(2.0 * everything)])


def test_gather_needs_the_ids_where_points_are_held(comm):
    layout = term_layout(comm)
    raises_everywhere(
        ferry.Errc.ARG,
        r"global_sums: rank \d+ holds points but passed no ids",
        lambda: ferry.global_sums(comm, terms(layout.ids), "gather"),
    )
    zeros = np.zeros(layout.local_size, dtype=np.int64)  # id 0 for every point
    raises_everywhere(
        ferry.Errc.DUPLICATE,
        r"global_sums: id 0 is held more than once",
        lambda: ferry.global_sums(comm, terms(layout.ids), "gather", ids=zeros),
    )


def test_a_term_that_is_not_finite_raises_with_reprosum_everywhere(comm):
    layout = ferry.Layout.block(N_TERMS, comm.size, comm.rank)
    values = terms(layout.ids)
    if comm.rank == comm.size - 1:
        values[0] = np.inf
    raises_everywhere(
        ferry.Errc.ARG,
        rf"reprosum needs finite terms; rank {comm.size - 1} holds a NaN or an infinity",
        lambda: ferry.global_sums(comm, values),
    )
    # lsum8 lets it propagate.
    assert ferry.global_sums(comm, values, "lsum8")[0] == np.inf


def test_bad_arguments_on_the_last_rank_raise_everywhere(comm):
    layout = ferry.Layout.block(N_TERMS, comm.size, comm.rank)
    last = comm.rank == comm.size - 1
    values = terms(layout.ids)
    ids = np.append(layout.ids, 0) if last else layout.ids
    n = ferry.Layout.block(N_TERMS, comm.size, comm.size - 1).local_size  # the last rank's
    raises_everywhere(
        ferry.Errc.ARG_SIZE,
        rf"ids has {n + 1} values on rank {comm.size - 1}, expected {n}",
        lambda: ferry.global_sums(comm, values, "gather", ids=ids),
        rank=comm.size - 1,
    )
    raises_everywhere(
        ferry.Errc.ARG,
        r'method is .fast.; use one of "gather", "lsum8", "lsum16", "ddpdd", "reprosum"',
        lambda: ferry.global_sums(comm, values, "fast" if last else "reprosum"),
    )
    raises_everywhere(
        ferry.Errc.ARG,
        r"values must be a 1-D or 2-D array of float64 values; got shape \(\d+, 1, 1\)",
        lambda: ferry.global_sums(comm, values.reshape(-1, 1, 1) if last else values),
    )
    raises_everywhere(
        ferry.Errc.ARG,
        r"ids cannot be read as int64 values",
        lambda: ferry.global_sums(comm, values, "gather", ids=layout.ids * (0.5 if last else 1)),
    )
    if comm.size > 1:
        raises_everywhere(
            ferry.Errc.ARG,
            r"the ranks pass values with different numbers of columns \(1 to 2\)",
            lambda: ferry.global_sums(comm, np.stack([values] * 2, 1) if last else values),
        )
        raises_everywhere(
            ferry.Errc.ARG,
            r'the ranks pass different methods \("lsum8" to "reprosum"\)',
            lambda: ferry.global_sums(comm, values, "lsum8" if last else "reprosum"),
        )


# ---------------------------------------------------------------------------------
# conserve: two 1-D grids, areas and values functions of the global id


def src_area(ids):
    return 1.0 + (ids % 5) / 4.0


def dst_area(ids):
    # The destination covers the same total area (sum over 23 cells is 43.75 ...).
    return 2.0 + (ids % 3) / 2.0


def src_field(ids):
    return 3.0 + np.ldexp(1.0 + ids / 3.0, ids % 7 - 3)


def dst_field(ids):
    """A regridded field that does not conserve: of both signs, too low on average."""
    return 0.5 + ids / 8.0 - (ids % 4 == 0) * 6.0


def src_frac(ids):
    return 0.25 + (ids % 4) / 4.0


def dst_frac(ids):
    return (1.0 + ids % 2) / 2.0


def src_mask(ids):
    return (ids % 6 != 1).astype(np.int32)


def dst_mask(ids):
    return (ids % 5 != 2).astype(np.int32)


def grids(comm):
    src = ferry.Layout.block(N_SRC, comm.size, comm.rank)
    dst = ferry.Layout.random(N_DST, comm.size, comm.rank, seed=3)
    return src, dst


def reference(method, components=1, frac=False, mask=False, total=fsum):
    """conserve() on one rank, as conservation.hpp writes it; `total` adds the terms
    (math.fsum rounds correctly, as "reprosum" does; in_id_order is "gather")."""
    g_src, g_dst = np.arange(N_SRC), np.arange(N_DST)
    basin = method in ("basin_balance", "basin_positive")
    w_src, w_dst = src_area(g_src), dst_area(g_dst)
    if basin and frac:
        w_src, w_dst = w_src * src_frac(g_src), w_dst * dst_frac(g_dst)
    if mask:
        w_src, w_dst = w_src * src_mask(g_src), w_dst * dst_mask(g_dst)
    active = dst_mask(g_dst) != 0 if mask else np.ones(N_DST, bool)
    src_values, out = table(src_field, g_src, components), table(dst_field, g_dst, components)
    W_src, W_dst = total(w_src), total(w_dst)
    for c in range(components):
        S_src = total(w_src * src_values[:, c])
        S_dst = total(w_dst * out[:, c])
        target = S_src * (W_dst / W_src) if basin else S_src
        if method in ("global_positive", "basin_positive"):
            out[active, c] *= target / S_dst
        else:
            out[active, c] += (target - S_dst) / W_dst
    return out


def table(field, ids, components):
    """Component c of point g: (c + 1) field(g) + c."""
    return np.stack([(c + 1) * field(ids) + c for c in range(components)], 1)


def conserved(comm, method, src, dst, components=1, frac=False, mask=False, **options):
    values = table(dst_field, dst.ids, components)
    if components == 1:
        values = values[:, 0].copy()
    src_values = table(src_field, src.ids, components)
    extra = {}
    if frac:
        extra.update(src_frac=src_frac(src.ids), dst_frac=dst_frac(dst.ids))
    if mask:
        extra.update(src_mask=src_mask(src.ids), dst_mask=dst_mask(dst.ids))
    ferry.conserve(
        comm,
        method,
        src,
        src_values[:, 0] if components == 1 else src_values,
        dst,
        values,
        src_area=src_area(src.ids),
        dst_area=dst_area(dst.ids),
        **extra,
        **options,
    )
    return values.reshape(dst.local_size, components)


@pytest.mark.parametrize(
    "method",
    ["global", "global_positive", "basin_balance", "basin_positive", ferry.Conserve.GLOBAL],
)
def test_every_method_gives_the_formula_bit_for_bit_on_any_ranks(comm, method):
    src, dst = grids(comm)
    name = method if isinstance(method, str) else "global"
    for components in (1, 3):
        got = conserved(comm, method, src, dst, components)
        assert bits(got) == bits(reference(name, components)[dst.ids])
    with_all = conserved(comm, method, src, dst, 2, frac=True, mask=True)
    assert bits(with_all) == bits(reference(name, 2, frac=True, mask=True)[dst.ids])


def test_global_makes_the_area_integrals_equal(comm):
    src, dst = grids(comm)
    got = conserved(comm, "global", src, dst)[:, 0]
    source = fsum(src_area(np.arange(N_SRC)) * src_field(np.arange(N_SRC)))
    before = comm.allreduce(np.sum(dst_area(dst.ids) * dst_field(dst.ids)))
    after = comm.allreduce(np.sum(dst_area(dst.ids) * got))
    assert abs(before - source) > 1.0  # it did not conserve
    assert after == pytest.approx(source, rel=1e-12)


@pytest.mark.parametrize("sum", ["gather", "lsum8", "lsum16", "ddpdd", ferry.SumMethod.DDPDD])
def test_every_sum_conserves(comm, sum):
    src, dst = grids(comm)
    got = conserved(comm, "global", src, dst, 2, sum=sum)
    g = np.arange(N_SRC)
    for c in range(2):
        source = fsum(src_area(g) * table(src_field, g, 2)[:, c])
        after = comm.allreduce(np.sum(dst_area(dst.ids) * got[:, c]))
        assert after == pytest.approx(source, rel=1e-12)
    if sum == "gather":  # reproducible too: adds by ascending id
        assert bits(got) == bits(reference("global", 2, total=in_id_order)[dst.ids])
    np.testing.assert_allclose(got, reference("global", 2)[dst.ids], rtol=1e-13)


def test_global_positive_keeps_every_sign(comm):
    src, dst = grids(comm)
    before = dst_field(dst.ids)
    assert comm.allreduce(np.count_nonzero(before < 0)) > 0
    got = conserved(comm, "global_positive", src, dst)[:, 0]
    assert np.array_equal(np.sign(got), np.sign(before))
    # global adds the same amount everywhere instead, which here flips negative values.
    shifted = conserved(comm, "global", src, dst)[:, 0]
    assert comm.allreduce(np.count_nonzero(np.sign(shifted) != np.sign(before))) > 0


def test_masked_points_are_left_alone_and_weigh_nothing(comm):
    src, dst = grids(comm)
    got = conserved(comm, "global", src, dst, mask=True)[:, 0]
    masked = dst_mask(dst.ids) == 0
    assert bits(got[masked]) == bits(dst_field(dst.ids)[masked])
    assert not np.any(got[~masked] == dst_field(dst.ids)[~masked])
    # The active points carry the active source integral.
    g = np.arange(N_SRC)
    source = fsum(src_area(g) * src_mask(g) * src_field(g))
    after = comm.allreduce(np.sum((dst_area(dst.ids) * got)[~masked]))
    assert after == pytest.approx(source, rel=1e-12)


def test_basin_methods_keep_the_mean_per_unit_of_unmasked_area(comm):
    src, dst = grids(comm)
    g = np.arange(N_SRC)
    w_src = src_area(g) * src_frac(g)
    mean = fsum(w_src * src_field(g)) / fsum(w_src)
    w_dst = dst_area(dst.ids) * dst_frac(dst.ids)
    for method in ("basin_balance", "basin_positive"):
        got = conserved(comm, method, src, dst, frac=True)[:, 0]
        integral, weight = comm.allreduce(np.array([np.sum(w_dst * got), np.sum(w_dst)]))
        assert integral / weight == pytest.approx(mean, rel=1e-12)
    # Without frac, frac counts as 1: the same as with frac 1 everywhere.
    assert bits(conserved(comm, "basin_balance", src, dst)) == bits(
        reference("basin_balance")[dst.ids]
    )


def test_conserve_accepts_none_or_empty_arrays_where_no_points_are_held(comm):
    # The source on rank 0 only; the destination spread over every rank.
    src = ferry.Layout.block(N_SRC, 1, 0) if comm.rank == 0 else ferry.Layout.none(N_SRC)
    dst = ferry.Layout.random(N_DST, comm.size, comm.rank, seed=3)
    values = table(dst_field, dst.ids, 2)
    src_values = table(src_field, src.ids, 2) if comm.rank == 0 else None
    area = src_area(src.ids) if comm.rank == 0 else None
    if comm.rank % 2 == 0 and comm.rank > 0:
        src_values, area = np.empty((0, 2)), np.empty(0)
    ferry.conserve(
        comm,
        "global",
        src,
        src_values,
        dst,
        values,
        src_area=area,
        dst_area=dst_area(dst.ids),
    )
    assert bits(values) == bits(reference("global", 2)[dst.ids])


def test_bad_arguments_raise_everywhere(comm):
    src, dst = grids(comm)
    last = comm.rank == comm.size - 1
    values = dst_field(dst.ids)
    src_values = src_field(src.ids)

    def call(method="global", dst_values=values, sv=src_values, **options):
        arguments = {"src_area": src_area(src.ids), "dst_area": dst_area(dst.ids), **options}
        ferry.conserve(comm, method, src, sv, dst, dst_values, **arguments)

    raises_everywhere(
        ferry.Errc.ARG,
        r'conserve: method is .globl.; use one of "global", "global_positive", '
        r'"basin_balance", "basin_positive"',
        lambda: call("globl" if last else "global"),
    )
    raises_everywhere(
        ferry.Errc.ARG,
        r"conserve: sum is .exact.; use one of",
        lambda: call(sum="exact" if last else "reprosum"),
    )
    # The source is held in blocks, so the last rank holds points: n of them.
    n = ferry.Layout.block(N_SRC, comm.size, comm.size - 1).local_size
    raises_everywhere(
        ferry.Errc.ARG,
        rf"src_area is None on rank {comm.size - 1}, which holds {n} points",
        lambda: call(src_area=None if last else src_area(src.ids)),
        rank=comm.size - 1,
    )
    raises_everywhere(
        ferry.Errc.ARG_SIZE,
        rf"conserve: src_area has {n + 1} values on rank {comm.size - 1}, expected {n}",
        lambda: call(src_area=np.append(src_area(src.ids), 1.0) if last else src_area(src.ids)),
    )
    raises_everywhere(
        ferry.Errc.ARG_SIZE,
        r"conserve: dst_mask has \d+ values on rank",
        lambda: call(dst_mask=np.ones(dst.local_size + (1 if last else 0), np.int32)),
    )
    ones = np.ones(src.local_size, np.int32)
    raises_everywhere(
        ferry.Errc.ARG,
        r"conserve: src_mask cannot be read as int32 values",
        lambda: call(src_mask=ones * 0.5 if last else ones),
    )
    raises_everywhere(
        ferry.Errc.ARG_SIZE,
        r"conserve: src_values has 1 components on rank \d+, dst_values 2",
        lambda: call(dst_values=np.zeros((dst.local_size, 2))),
    )
    raises_everywhere(
        ferry.Errc.ARG,
        r"conserve: dst_values is read-only",
        lambda: call(dst_values=_read_only(values)),
    )
    raises_everywhere(
        ferry.Errc.ARG,
        r"conserve: dst_values has dtype float32",
        lambda: call(dst_values=values.astype(np.float32)),
    )
    if comm.size > 1:
        two = np.stack([values] * 2, 1)
        raises_everywhere(
            ferry.Errc.ARG,
            r"conserve: the ranks pass different numbers of components \(1 to 2\)",
            lambda: call(
                dst_values=two if last else values,
                sv=np.stack([src_values] * 2, 1) if last else src_values,
            ),
        )
        raises_everywhere(
            ferry.Errc.ARG,
            r'conserve: the ranks pass different methods \("global" to "basin_balance"\)',
            lambda: call("basin_balance" if last else "global"),
        )
    # Nothing was corrected by the calls that failed.
    assert bits(values) == bits(dst_field(dst.ids))


def _read_only(values):
    view = values.view()
    view.flags.writeable = False
    return view


# ---------------------------------------------------------------------------------
# Remap.src_points and dst_points, and conservation after a remap

SRC_NX, SRC_NY = 12, 6  # 30-degree cells
DST_NX, DST_NY = 8, 4  # 45-degree cells


def cells(layout, nx, ny, mask=None):
    lon, lat = corners(nx, ny)
    return ferry.GridCells(layout, lon[layout.ids], lat[layout.ids], mask=mask)


def cell_area(nx, ny, ids):
    """Area of a cell on the unit sphere."""
    lat = np.radians(-90.0 + np.arange(ny + 1) * 180.0 / ny)
    return (2 * np.pi / nx) * (np.sin(lat[1:]) - np.sin(lat[:-1]))[ids // nx]


def lonlat_field(ids, nx):
    return 280.0 + 0.5 * (ids % nx) - 0.25 * (ids // nx)


def remap_layouts(comm):
    src = ferry.Layout.block(SRC_NX * SRC_NY, comm.size, comm.rank)
    dst = ferry.Layout.random(DST_NX * DST_NY, comm.size, comm.rank, seed=11)
    return src, dst


def land(ids):
    """A source mask: two cells of the source grid are land."""
    return (~np.isin(ids, [14, 27])).astype(np.int32)


def conservative_remap(comm, src, dst, masked=False):
    src_cells = cells(src, SRC_NX, SRC_NY, land(src.ids) if masked else None)
    weights = ferry.conservative_weights(comm, src_cells, cells(dst, DST_NX, DST_NY))
    return ferry.Remap(comm, weights, src, dst)


def test_remap_points_are_the_cells_of_the_conservative_weights(comm):
    src, dst = remap_layouts(comm)
    remap = conservative_remap(comm, src, dst)
    for points, layout, nx, ny in (
        (remap.src_points, src, SRC_NX, SRC_NY),
        (remap.dst_points, dst, DST_NX, DST_NY),
    ):
        assert isinstance(points, ferry.GridPointData)
        assert points.area.dtype == np.float64 and points.area.shape == (layout.local_size,)
        np.testing.assert_allclose(points.area, cell_area(nx, ny, layout.ids), rtol=1e-13)
        np.testing.assert_allclose(points.frac, 1.0, rtol=0, atol=1e-13)
        assert points.mask.dtype == np.int32
        np.testing.assert_array_equal(points.mask, 1)
        assert not points.area.flags.writeable
    # The views keep the remap alive.
    area = conservative_remap(comm, src, dst).dst_points.area
    gc.collect()
    np.testing.assert_allclose(area, cell_area(DST_NX, DST_NY, dst.ids), rtol=1e-13)


def test_remap_points_from_a_scrip_file_and_from_links(comm, shared_dir):
    src, dst = remap_layouts(comm)
    src_cells = cells(src, SRC_NX, SRC_NY, land(src.ids))
    weights = ferry.conservative_weights(comm, src_cells, cells(dst, DST_NX, DST_NY))
    path = os.path.join(shared_dir, "conservative.nc")
    weights.write_scrip(comm, path)
    computed = ferry.Remap(comm, weights, src, dst)
    read = ferry.Remap(comm, ferry.Weights.read(comm, path), src, dst)
    for side in ("src_points", "dst_points"):
        a, b = getattr(computed, side), getattr(read, side)
        assert bits(a.area) == bits(b.area)
        assert bits(a.frac) == bits(b.frac)
        assert a.mask.tolist() == b.mask.tolist()
    np.testing.assert_array_equal(read.src_points.mask, land(src.ids))
    # Links a program computed carry no point data.
    one = [0] if comm.rank == 0 else []  # one link, 0 <- 0, on rank 0
    links = ferry.Weights.from_links(comm, SRC_NX * SRC_NY, DST_NX * DST_NY, one, one, one)
    remap = ferry.Remap(comm, links, src, dst)
    for points in (remap.src_points, remap.dst_points):
        assert (points.area, points.frac, points.mask) == (None, None, None)
    raises_everywhere(
        ferry.Errc.ARG,
        r"conserve: src_area is None on rank 0, which holds \d+ points; pass the cell areas",
        lambda: ferry.conserve(
            comm,
            "global",
            src,
            np.ones(src.local_size),
            dst,
            np.ones(dst.local_size),
            src_area=remap.src_points.area,
            dst_area=remap.dst_points.area,
        ),
    )


def test_remap_then_conserve_with_the_weights_areas(comm):
    src, dst = remap_layouts(comm)
    # Land cells in the source: fracarea normalisation keeps constants, not integrals.
    remap = conservative_remap(comm, src, dst, masked=True)
    source = lonlat_field(src.ids, SRC_NX)
    got = np.empty(dst.local_size)
    remap.apply(source, got)
    p, q = remap.src_points, remap.dst_points
    active = p.mask != 0
    target = comm.allreduce(np.sum((p.area * source)[active]))
    before = comm.allreduce(np.sum(q.area * got))
    assert abs(before / target - 1) > 1e-4
    ferry.conserve(
        comm,
        "global",
        src,
        source,
        dst,
        got,
        src_area=p.area,
        dst_area=q.area,
        src_mask=p.mask,
        dst_mask=q.mask,
    )
    after = comm.allreduce(np.sum(q.area * got))
    assert after == pytest.approx(target, rel=1e-12)
    # Remap (bfb) and conserve (reprosum) give the bits of one rank.
    alone = MPI.COMM_SELF
    whole_src = ferry.Layout.block(SRC_NX * SRC_NY, 1, 0)
    whole_dst = ferry.Layout.block(DST_NX * DST_NY, 1, 0)
    serial_remap = conservative_remap(alone, whole_src, whole_dst, masked=True)
    serial = np.empty(whole_dst.local_size)
    whole_source = lonlat_field(whole_src.ids, SRC_NX)
    serial_remap.apply(whole_source, serial)
    ferry.conserve(
        alone,
        ferry.Conserve.GLOBAL,
        whole_src,
        whole_source,
        whole_dst,
        serial,
        src_area=serial_remap.src_points.area,
        dst_area=serial_remap.dst_points.area,
        src_mask=serial_remap.src_points.mask,
        dst_mask=serial_remap.dst_points.mask,
        sum=ferry.SumMethod.REPROSUM,
    )
    assert bits(got) == bits(serial[dst.ids])
