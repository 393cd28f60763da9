"""ferry.Exchange: every engine moves every type exactly, in place, without copies.

Expected values are computed: component c of global id g holds 1000*g + c.
"""

import numpy as np
import pytest
from mpi4py import MPI

import ferry

ENGINES = ferry.engine_names()
DTYPES = [np.float64, np.float32, np.int32, np.int64]


def values(layout, dtype, components=1):
    """The field on the ids of `layout`: shape (points,) or (points, components)."""
    v = 1000 * layout.ids[:, None] + np.arange(components)
    return v[:, 0].astype(dtype) if components == 1 else v.astype(dtype)


def blank(layout, dtype, components=1):
    shape = (layout.local_size,) if components == 1 else (layout.local_size, components)
    return np.full(shape, -1, dtype=dtype)


def block_to_random(comm, points_per_rank=300):
    n = points_per_rank * comm.size
    return ferry.Layout.block(n, comm.size, comm.rank), ferry.Layout.random(
        n, comm.size, comm.rank, seed=11
    )


@pytest.mark.parametrize("components", [1, 3])
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("engine", ENGINES)
def test_every_engine_moves_every_type(comm, engine, dtype, components):
    src, dst = block_to_random(comm)
    exchange = ferry.Exchange(comm, src, dst, [(dtype, components)], engine=engine)
    assert exchange.engine_name == engine
    assert exchange.fields == [(np.dtype(dtype), components)]
    got = blank(dst, dtype, components)
    exchange.execute(values(src, dtype, components), got)
    np.testing.assert_array_equal(got, values(dst, dtype, components))


@pytest.mark.parametrize("engine", ENGINES)
def test_several_fields_with_a_mask_and_split_phase(comm, engine):
    src, dst = block_to_random(comm)
    # A field is a dtype-like (one value per point) or a (dtype-like, components) pair.
    exchange = ferry.Exchange(
        comm, src, dst, [np.float64, (np.float32, 2), "int32", (np.int64, 4)], engine=engine
    )
    shapes = [(np.float64, 1), (np.float32, 2), (np.int32, 1), (np.int64, 4)]
    assert exchange.fields == [(np.dtype(t), c) for t, c in shapes]
    out = [values(src, t, c) for t, c in shapes]
    got = [blank(dst, t, c) for t, c in shapes]

    # Only fields 1 and 3 move; the others may be None.
    exchange.execute([None, out[1], None, out[3]], [None, got[1], None, got[3]], mask=[0, 1, 0, 1])
    np.testing.assert_array_equal(got[1], values(dst, *shapes[1]))
    np.testing.assert_array_equal(got[3], values(dst, *shapes[3]))
    assert (got[0] == -1).all() and (got[2] == -1).all()

    exchange.begin(out, got)
    busy = sum(range(1000))  # computation overlapping the exchange
    exchange.test()
    exchange.end()
    assert busy == 499500
    for g, (t, c) in zip(got, shapes):
        np.testing.assert_array_equal(g, values(dst, t, c))


def test_arrays_are_read_and_written_in_place(comm):
    src, dst = block_to_random(comm)
    exchange = ferry.Exchange(comm, src, dst, [(np.float64, 2)])
    out = values(src, np.float64, 2)
    # The destination is a view into a larger buffer: ferry must write through it.
    buffer = np.full((dst.local_size + 2, 2), -1.0)
    got = buffer[1:-1]
    exchange.execute(out, got)
    assert np.shares_memory(got, buffer)
    np.testing.assert_array_equal(buffer[1:-1], values(dst, np.float64, 2))
    assert (buffer[0] == -1).all() and (buffer[-1] == -1).all()

    # The source is read at each execute, not copied once: changes show up.
    out += 0.5
    exchange.execute(out, got)
    np.testing.assert_array_equal(buffer[1:-1], values(dst, np.float64, 2) + 0.5)


def test_arrays_given_to_begin_stay_alive_until_end(comm):
    src, dst = block_to_random(comm)
    exchange = ferry.Exchange(comm, src, dst, np.int64)
    got = blank(dst, np.int64)
    exchange.begin(values(src, np.int64), got)  # the source array is a temporary
    exchange.end()
    np.testing.assert_array_equal(got, values(dst, np.int64))


def test_m_to_n_with_ranks_outside_a_group(comm):
    # Sources on the first half of the ranks, destinations on the rest (one rank: both).
    n = 1000
    sources = max(1, comm.size // 2)
    is_src = comm.size == 1 or comm.rank < sources
    is_dst = comm.size == 1 or comm.rank >= sources
    dst_ranks = comm.size - sources if comm.size > 1 else 1
    src = ferry.Layout.block(n, sources, comm.rank) if is_src else ferry.Layout.none(n)
    dst = (
        ferry.Layout.round_robin(n, dst_ranks, comm.rank - sources if comm.size > 1 else 0)
        if is_dst
        else ferry.Layout.none(n)
    )
    exchange = ferry.Exchange(comm, src, dst, [(np.float32, 1)], engine="p2p", options={})
    got = blank(dst, np.float32) if is_dst else None
    exchange.execute(values(src, np.float32) if is_src else None, got)
    if is_dst:
        np.testing.assert_array_equal(got, values(dst, np.float32))
    traffic = exchange.traffic()
    assert set(traffic) == {"messages", "bytes", "rounds"}
    assert exchange.setup_seconds >= 0


def test_local_communicators(comm):
    # A split with the rank order reversed catches any use of the world communicator;
    # it is given as a Fortran handle, as code without mpi4py would (named as such).
    reversed_comm = comm.Split(0, comm.size - 1 - comm.rank)
    src, dst = block_to_random(reversed_comm)
    exchange = ferry.Exchange(
        ferry.FortranComm(reversed_comm.py2f()), src, dst, np.int32, engine="alltoallv"
    )
    reversed_comm.Free()  # the exchange keeps its own duplicate
    got = blank(dst, np.int32)
    exchange.execute(values(src, np.int32), got)
    np.testing.assert_array_equal(got, values(dst, np.int32))


@pytest.mark.parametrize("engine", ENGINES)
def test_receiving_into_the_memory_the_engine_offers(comm, engine):
    src, dst = block_to_random(comm)
    shapes = [(np.float64, 1), (np.int32, 3)]
    with ferry.Exchange(comm, src, dst, shapes, engine=engine) as exchange:
        own = [blank(dst, t, c) for t, c in shapes]
        offered = 0
        for step in range(4):
            into = []
            for f, (t, c) in enumerate(shapes):
                view = exchange.destination_field(f)
                if view is not None:
                    # A view of the engine's memory, of the field's dtype and shape.
                    assert view.dtype == np.dtype(t) and view.shape == own[f].shape
                    assert view.flags.c_contiguous and view.flags.writeable
                    assert not np.shares_memory(view, own[f])
                    offered += 1
                into.append(view if view is not None else own[f])
            sent = [values(src, t, c) + step for t, c in shapes]
            exchange.execute(sent, into)
            for f, (t, c) in enumerate(shapes):
                np.testing.assert_array_equal(into[f], values(dst, t, c) + step)
        with pytest.raises(ferry.Error, match="field 2 out of range"):
            exchange.destination_field(2)
    # rma offers its field areas to every rank with a source on its node (here, all
    # that receive from another rank).
    anywhere = comm.allreduce(offered, op=MPI.SUM)
    if engine == "rma" and comm.size > 1:
        assert anywhere > 0
    if engine not in ("rma", "adaptive"):
        assert anywhere == 0
