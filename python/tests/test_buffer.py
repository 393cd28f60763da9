"""ferry.TimeSeriesBuffer: requester ranks load steps, worker groups read them.

The first ranks are the requester (each holds a band of rows of the global array);
the others are workers, in one or two groups, each rank reading its own box across
the requester bands. The value at global index g of step s is 100*g + s, checked
exactly. Needs 2 or more ranks: skipped on 1.
"""

import time

import numpy as np
import pytest
from agreed_errors import raises_everywhere

import ferry

DTYPES = [np.float64, np.float32, np.int32, np.int64]
SHAPES = [(40,), (6, 5), (4, 3, 5)]


@pytest.fixture(params=["more requesters", "more workers"])
def roles(comm, request):
    """(requesters, requester index or None, worker group or None, group communicator).

    "more requesters": half the ranks (rounded up) are requesters, the rest one group;
    "more workers": one requester, the other ranks in two groups when there are two.
    """
    if comm.size < 2:
        pytest.skip("needs a requester rank and a worker rank")
    more_requesters = request.param == "more requesters"
    requesters = (comm.size + 1) // 2 if more_requesters else 1
    groups = 1 if more_requesters or comm.size - requesters < 2 else 2
    if comm.rank < requesters:
        return requesters, comm.rank, None, comm.Split(groups, comm.rank)
    group = (comm.rank - requesters) % groups
    return requesters, None, group, comm.Split(group, comm.rank)


def band(shape, requesters, index):
    """Requester `index` holds rows [start, stop) of dimension 0 (all of the others)."""
    rows = shape[0]
    box = [(rows * index // requesters, rows * (index + 1) // requesters)]
    return tuple(box + [(0, n) for n in shape[1:]])


def worker_box(shape, group, rank):
    """A box crossing every requester band, different for each group and rank."""
    shift = (group + rank) % 2
    return np.s_[tuple(slice(shift, n - (1 - shift)) for n in shape)]


def values(shape, box, step, dtype):
    """The values of `box` (pairs or slices) at `step`: 100 * global index + step."""
    ranges = [(b.start, b.stop) if isinstance(b, slice) else b for b in box]
    index = np.indices([stop - start for start, stop in ranges])
    index += np.array([start for start, _ in ranges]).reshape((-1,) + (1,) * len(ranges))
    return (100 * np.ravel_multi_index(tuple(index), shape) + step).astype(dtype)


def naps(seed):
    """Random pauses of up to 2 ms: producers and consumers at random speeds."""
    rng = np.random.default_rng(seed)
    return lambda: time.sleep(rng.uniform(0, 0.002))


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{len(s)}d")
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda t: np.dtype(t).name)
def test_lossless_workers_read_every_step_exactly(comm, roles, shape, dtype):
    requesters, index, group, group_comm = roles
    steps = [3 * k + 1 for k in range(9)]  # increasing, not consecutive
    nap = naps(comm.rank)
    if index is not None:
        box = band(shape, requesters, index)
        buffer = ferry.TimeSeriesBuffer.expose(comm, shape, box, dtype, capacity=3)
        assert buffer.is_requester and buffer.capacity_steps == 3
        assert buffer.shape == shape and buffer.dtype == np.dtype(dtype)
        assert buffer.mode == ferry.BufferMode.LOSSLESS
        for step in steps:
            nap()
            buffer.load(values(shape, box, step, dtype), step)
        buffer.close()
    else:
        buffer = ferry.TimeSeriesBuffer.connect(comm, group)
        assert not buffer.is_requester
        box = worker_box(shape, group, group_comm.rank)
        reader = buffer.attach(group_comm, box)
        assert reader.dtype == np.dtype(dtype)
        assert reader.values_per_step == np.prod(reader.box_shape)
        out = reader.empty(4)
        assert out.shape == (4, *reader.box_shape)
        seen = []
        while True:
            nap()
            first, n, lost = reader.read(out)
            if n == 0:
                break
            assert lost == 0 and first == reader.steps[0] and len(reader.steps) == n
            for s, step in enumerate(reader.steps):
                np.testing.assert_array_equal(out[s], values(shape, box, step, dtype))
            seen.extend(reader.steps.tolist())
        assert seen == steps
        assert reader.statistics["steps"] == len(steps)
        reader.done()
        del reader
    del buffer
    group_comm.Free()


def test_lossy_reader_gets_the_newest_steps_and_counts_the_lost(comm, roles):
    requesters, index, group, group_comm = roles
    shape = (8, 4)
    if index is not None:
        box = band(shape, requesters, index)
        buffer = ferry.TimeSeriesBuffer.expose(comm, shape, box, "int64", capacity=3, mode="lossy")
        comm.Barrier()  # the workers have attached
        for step in range(10):
            buffer.load(values(shape, box, step, np.int64), step)  # never waits
        buffer.close()
        comm.Barrier()
    else:
        buffer = ferry.TimeSeriesBuffer.connect(comm, group)
        box = worker_box(shape, group, group_comm.rank)
        reader = buffer.attach(group_comm, box)
        comm.Barrier()
        comm.Barrier()  # every step is loaded, the ring holds the last 3
        out = reader.empty(2)
        first, n, lost = reader.read(out)
        assert (first, n, lost) == (8, 2, 8)
        assert reader.steps.tolist() == [8, 9]
        for s, step in enumerate(reader.steps):
            np.testing.assert_array_equal(out[s], values(shape, box, step, np.int64))
        assert reader.read(out)[1] == 0  # the end of the stream
        assert reader.statistics["lost_steps"] == 8
        reader.done()
        del reader
    del buffer
    group_comm.Free()


def test_capacity_in_bytes_and_an_enum_mode(comm, roles):
    requesters, index, group, group_comm = roles
    shape = (12,)
    if index is not None:
        box = band(shape, requesters, index)
        largest = -(-shape[0] // requesters) * 4  # bytes of the largest requester box
        buffer = ferry.TimeSeriesBuffer.expose(
            comm, shape, box, np.float32, capacity_bytes=5 * largest, mode=ferry.BufferMode.LOSSY
        )
        assert buffer.capacity_steps == 5 and buffer.mode == ferry.BufferMode.LOSSY
        buffer.close()
    else:
        buffer = ferry.TimeSeriesBuffer.connect(comm, group)
        reader = buffer.attach(group_comm, [(0, 12)])
        assert reader.read(reader.empty(1))[1:] == (0, 0)
        reader.done()
        del reader
    del buffer
    group_comm.Free()


def test_bad_arguments_raise_clear_errors_on_every_rank(comm, roles):
    requesters, index, group, group_comm = roles
    shape = (6, 5)
    # Both capacities: every rank of the parent raises, requesters and workers alike.
    if index is not None:
        raises_everywhere(
            ferry.Errc.ARG,
            "exactly one of capacity",
            lambda: ferry.TimeSeriesBuffer.expose(
                comm, shape, band(shape, requesters, index), "int32", 2, capacity_bytes=64
            ),
        )
    else:
        raises_everywhere(
            ferry.Errc.ARG,
            "exactly one of capacity",
            lambda: ferry.TimeSeriesBuffer.connect(comm, group),
        )

    if index is not None:
        box = band(shape, requesters, index)
        buffer = ferry.TimeSeriesBuffer.expose(comm, shape, box, "int32", capacity=2)
        good = values(shape, box, 5, np.int32)
        raises_everywhere(
            ferry.Errc.ARG_SIZE, r"has shape \(", lambda: buffer.load(good.ravel()[1:], 5)
        )
        raises_everywhere(ferry.Errc.ARG, "dtype float64", lambda: buffer.load(good * 1.0, 5))
        buffer.load(good, 5)
        raises_everywhere(
            ferry.Errc.ARG, "Steps must strictly increase", lambda: buffer.load(good, 5)
        )
        buffer.close()
        raises_everywhere(ferry.Errc.STATE, "called twice", buffer.close)
    else:
        buffer = ferry.TimeSeriesBuffer.connect(comm, group)
        raises_everywhere(ferry.Errc.STATE, "load", lambda: buffer.load(None, 1))
        # A box this module cannot parse on one rank only: agreed on the whole group.
        box = "rows 0 to 3" if group_comm.rank == 0 else [(0, 3), (0, 5)]
        raises_everywhere(ferry.Errc.ARG, "pair or slice", lambda: buffer.attach(group_comm, box))
        raises_everywhere(
            ferry.Errc.ARG, "does not lie in", lambda: buffer.attach(group_comm, np.s_[0:7, 0:5])
        )
        reader = buffer.attach(group_comm, np.s_[1:4, 0:5])
        # A wrong output array on one rank only: every rank of the group raises.
        out = reader.empty(2)
        bad = reader.empty(2)[:, :, :2] if group_comm.rank == 0 else out
        raises_everywhere(
            ferry.Errc.ARG_SIZE, "output array on worker rank 0", lambda: reader.read(bad)
        )
        raises_everywhere(ferry.Errc.ARG_SIZE, "room for 2 steps", lambda: reader.read(out, 3))
        assert reader.read(out) == (5, 1, 0)
        np.testing.assert_array_equal(out[0], values(shape, np.s_[1:4, 0:5], 5, np.int32))
        assert reader.read(out)[1] == 0
        reader.done()
        raises_everywhere(ferry.Errc.STATE, "after done", lambda: reader.read(out))
        del reader
    buffer = None  # destroys it; the lambdas above still name the variable
    group_comm.Free()
