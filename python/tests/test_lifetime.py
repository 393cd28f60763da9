"""close() and `with` on every object that holds MPI resources: Exchange, Halo, Remap,
TimeSeriesBuffer (free), TimeSeriesReader and Coupler. close() is collective and
idempotent; a block that raises does nothing collective (the Coupler tells the other
ranks instead); the garbage collector never waits for another rank."""

import gc

import numpy as np
import pytest
from coupler_config import exchange, write_config
from mpi4py import MPI

import ferry

ENGINES = [e for e in ("p2p", "rma", "auto") if e in ferry.engine_names() or e == "auto"]


@pytest.mark.parametrize("engine", ENGINES)
def test_exchange_closes_at_the_end_of_a_with_block_and_only_once(comm, engine):
    n = 4 * comm.size + 3
    src_layout = ferry.Layout.block(n, comm.size, comm.rank)
    dst_layout = ferry.Layout.round_robin(n, comm.size, comm.rank)
    with ferry.Exchange(comm, src_layout, dst_layout, engine=engine) as ex:
        dst = np.full(dst_layout.local_size, -1.0)
        ex.execute(3.0 * src_layout.ids, dst)
        assert np.array_equal(dst, 3.0 * dst_layout.ids)
    ex.close()  # again: nothing to do
    with pytest.raises(ferry.Error) as closed:
        ex.execute(3.0 * src_layout.ids, dst)
    assert closed.value.code == ferry.Errc.STATE and "the exchange was closed" in str(closed.value)
    assert ex.engine_name  # the properties still answer


def test_a_with_block_that_raises_leaves_the_collective_close_to_the_caller(comm):
    n = 2 * comm.size
    src_layout = ferry.Layout.block(n, comm.size, comm.rank)
    with pytest.raises(ValueError), ferry.Exchange(comm, src_layout, src_layout) as ex:
        raise ValueError("raised inside the block")
    dst = np.zeros(src_layout.local_size)
    ex.execute(1.0 * src_layout.ids, dst)  # still open: nothing collective happened
    assert np.array_equal(dst, 1.0 * src_layout.ids)
    ex.close()


def test_garbage_collection_never_waits_for_another_rank(comm):
    # Rank 0 drops its exchanges while the others still hold theirs: with a destructor
    # that freed windows collectively, rank 0 would wait here for ever.
    n = 2 * comm.size
    layout = ferry.Layout.block(n, comm.size, comm.rank)
    held = [ferry.Exchange(comm, layout, layout, engine=e) for e in ENGINES]
    if comm.rank == 0:
        held.clear()
        gc.collect()
    comm.Barrier()
    held.clear()


def test_halo_closes_like_an_exchange(comm):
    mesh = ferry.GeodesicMesh(2)
    owner = ferry.partition_cells(mesh.offsets, mesh.neighbours, comm.size, "block")
    with ferry.Halo(comm, mesh.cell_graph(owner, comm.rank)) as halo:
        values = halo.empty()
        values[: halo.owned_count] = halo.cells[: halo.owned_count]
        halo.execute(values)
        assert np.array_equal(values, halo.cells)
    halo.close()
    with pytest.raises(ferry.Error, match="the exchange was closed"):
        halo.execute(values)


def test_remap_closes_like_an_exchange(comm):
    n = 3 * comm.size
    src = ferry.Layout.block(n, comm.size, comm.rank)
    dst = ferry.Layout.round_robin(n, comm.size, comm.rank)
    lon = np.linspace(0, 350, n)
    points = ferry.GridPoints(src, lon[src.ids], np.zeros(src.local_size))
    targets = ferry.GridPoints(dst, lon[dst.ids], np.zeros(dst.local_size))
    weights = ferry.nearest_neighbour_weights(comm, points, targets, 1)
    with ferry.Remap(comm, weights, src, dst) as remap:
        got = np.zeros(dst.local_size)
        remap.apply(1.0 * src.ids, got)
        assert np.array_equal(got, 1.0 * dst.ids)
    remap.close()
    with pytest.raises(ferry.Error, match="the remap was closed"):
        remap.apply(1.0 * src.ids, got)


def test_buffer_and_reader_free_at_the_end_of_their_blocks(comm):
    if comm.size < 2:
        pytest.skip("needs a requester rank and a worker rank")
    requester = comm.rank == 0
    group = comm.Split(0 if requester else 1, comm.rank)
    if requester:
        with ferry.TimeSeriesBuffer.expose(comm, (8,), [(0, 8)], np.int64, capacity=2) as buf:
            buf.load(np.arange(8, dtype=np.int64), 5)
        # The block's end closed the stream and freed the window.
        with pytest.raises(ferry.Error, match="the buffer was freed"):
            buf.load(np.arange(8, dtype=np.int64), 6)
    else:
        with ferry.TimeSeriesBuffer.connect(comm, 0) as buf:
            with buf.attach(group, [(0, 8)]) as reader:
                out = reader.empty(2)
                first, steps, _ = reader.read(out)
                assert (first, steps) == (5, 1) and np.array_equal(out[0], np.arange(8))
            reader.close()  # done already: nothing to do
        buf.free()
    group.Free()


ONE_EXCHANGE = exchange("t", "field: t", "field: t_in", 200)


def declare(coupler, comm, atm):
    n = 6 * comm.size
    parts = max(1, comm.size - 1)
    layout = (
        ferry.Layout.block(n, parts, comm.rank) if atm else ferry.Layout.round_robin(n, 1, 0)
    )
    grid = coupler.def_grid("atm" if atm else "ocn", "g", n)
    part = coupler.def_partition(grid, "p", layout)
    name, direction = ("t", "out") if atm else ("t_in", "in")
    return layout, coupler.def_field(part, name, direction, np.float64)


def test_coupler_finalizes_at_the_end_of_a_with_block(comm, shared_dir):
    if comm.size < 2:
        pytest.skip("needs an atm rank and an ocn rank")
    atm = comm.rank < comm.size - 1
    with ferry.Coupler(comm, "atm" if atm else "ocn", write_config(comm, shared_dir, ONE_EXCHANGE, length=400)) as c:
        layout, field = declare(c, comm, atm)
        c.enddef()
        for t in (0, 200):
            values = np.full(layout.local_size, float(t)) if atm else np.zeros(layout.local_size)
            (c.put if atm else c.get)(field, t, values)
            assert np.all(values == t)
    c.close()  # finalized already: nothing to do
    with pytest.raises(ferry.Error, match="only allowed between enddef and finalize"):
        c.put(field, 0, np.zeros(layout.local_size))


def test_an_error_in_a_coupler_block_tells_the_other_ranks_at_once(comm, shared_dir):
    if comm.size < 2:
        pytest.skip("needs an atm rank and an ocn rank")
    atm = comm.rank < comm.size - 1
    with pytest.raises((RuntimeError, ferry.Error)) as raised:
        with ferry.Coupler(comm, "atm" if atm else "ocn", write_config(comm, shared_dir, ONE_EXCHANGE, length=400)) as c:
            layout, field = declare(c, comm, atm)
            c.enddef()
            if comm.rank == 0:
                raise RuntimeError("the model failed")
            values = np.zeros(layout.local_size)
            for t in (0, 200):  # waits for rank 0, which never puts: stopped by its notice
                (c.put if atm else c.get)(field, t, values)
            c.finalize()
    if comm.rank == 0:
        assert raised.type is RuntimeError
    else:
        assert raised.type is ferry.Error and raised.value.code == ferry.Errc.STATE
        assert (
            'component "atm" (rank 0 of the run) failed in its own code '
            "(last coupler call: Coupler::enddef): RuntimeError: the model failed"
        ) in str(raised.value)
    MPI.COMM_WORLD.Barrier()
