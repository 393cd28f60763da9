"""ferry::Error arrives as ferry.Error, a RuntimeError with .code and .rank; arrays
that do not match their field are refused before anything moves."""

import re

import numpy as np
import pytest

import ferry

POINTS = 1000  # per rank


@pytest.fixture
def exchange(comm):
    n = POINTS * comm.size
    src = ferry.Layout.block(n, comm.size, comm.rank)
    dst = ferry.Layout.round_robin(n, comm.size, comm.rank)
    return ferry.Exchange(comm, src, dst, [np.float64, (np.float64, 4)])


def raised(call, *args, **kwargs):
    with pytest.raises(ferry.Error) as error:
        call(*args, **kwargs)
    return error.value


def test_error_is_a_runtime_error_with_code_and_rank(comm, exchange):
    error = raised(
        exchange.execute,
        [np.zeros(POINTS - 2), np.zeros((POINTS, 4))],
        [np.zeros(POINTS), np.zeros((POINTS, 4))],
    )
    assert isinstance(error, RuntimeError)
    assert error.code == ferry.Errc.ARG_SIZE
    assert isinstance(error.code, ferry.Errc)
    assert error.rank == comm.rank
    assert str(error) == (
        f"Exchange.execute: source field 0 has {POINTS - 2} values on rank {comm.rank}, expected "
        f"{POINTS} ({POINTS} points). Size it from the source layout (Layout.local_size points)"
    )


def test_each_mismatch_has_its_own_message(comm, exchange):
    src = [np.zeros(POINTS), np.zeros((POINTS, 4))]
    dst = [np.zeros(POINTS), np.zeros((POINTS, 4))]
    cases = [
        # (which array is replaced, by what, expected code, message pattern)
        (
            ("dst", 0),
            np.zeros(POINTS, np.float32),
            ferry.Errc.ARG,
            r"destination field 0 has dtype float32 .*expected float64",
        ),
        (
            ("src", 1),
            np.zeros(4 * POINTS),
            ferry.Errc.ARG_SIZE,
            r"source field 1 has shape \(4000,\) .*expected \(1000, 4\)",
        ),
        (
            ("src", 1),
            np.zeros((POINTS, 8))[:, ::2],
            ferry.Errc.ARG,
            r"source field 1 is not C-contiguous",
        ),
        (
            ("dst", 0),
            [0.0] * POINTS,
            ferry.Errc.ARG,
            r"destination field 0 is a list .*expected a NumPy array",
        ),
        (
            ("src", 0),
            None,
            ferry.Errc.ARG,
            r"source field 0 is None .*expected numpy.empty\(\(1000,\), dtype=numpy.float64\)",
        ),
    ]
    for (side, field), array, code, pattern in cases:
        arrays = {"src": list(src), "dst": list(dst)}
        arrays[side][field] = array
        error = raised(exchange.execute, arrays["src"], arrays["dst"])
        assert error.code == code, str(error)
        assert re.search(f"on rank {comm.rank}", str(error)), str(error)
        assert re.search(pattern, str(error)), str(error)


def test_read_only_destination(exchange):
    got = np.zeros(POINTS)
    got.setflags(write=False)
    error = raised(
        exchange.execute, [np.zeros(POINTS), np.zeros((POINTS, 4))], [got, np.zeros((POINTS, 4))]
    )
    assert error.code == ferry.Errc.ARG
    assert "destination field 0 is read-only" in str(error)


def test_wrong_number_of_arrays_and_mask(exchange):
    error = raised(exchange.execute, [np.zeros(POINTS)], [np.zeros(POINTS), np.zeros((POINTS, 4))])
    assert error.code == ferry.Errc.ARG_SIZE and "got 1 arrays" in str(error)
    error = raised(exchange.execute, np.zeros(POINTS), np.zeros(POINTS))
    assert error.code == ferry.Errc.ARG and "one per field" in str(error)
    arrays = [np.zeros(POINTS), np.zeros((POINTS, 4))]
    error = raised(exchange.execute, arrays, arrays, mask=[True])
    assert error.code == ferry.Errc.ARG_SIZE and "the mask has 1 entries" in str(error)


def test_split_phase_out_of_order(exchange):
    error = raised(exchange.end)
    assert error.code == ferry.Errc.STATE and "call begin() first" in str(error)


def test_unknown_engine_fails_the_same_on_every_rank(comm):
    layout = ferry.Layout.block(10 * comm.size, comm.size, comm.rank)
    error = raised(ferry.Exchange, comm, layout, layout, engine="neighbour")
    assert error.code == ferry.Errc.ARG
    assert 'unknown engine "neighbour"' in str(error)
    assert comm.allgather(str(error)) == [str(error)] * comm.size


def test_unknown_engine_option(comm):
    layout = ferry.Layout.block(10 * comm.size, comm.size, comm.rank)
    error = raised(
        ferry.Exchange, comm, layout, layout, engine="p2p", options={"no_such_option": True}
    )
    assert error.code == ferry.Errc.ARG and "no_such_option" in str(error)


def test_missing_source_ids(comm):
    n = 10 * comm.size
    dst = ferry.Layout.block(n, comm.size, comm.rank)
    src = ferry.Layout.points(n, dst.ids[dst.ids % 2 == 0])  # odd ids have no source
    error = raised(ferry.Exchange, comm, src, dst)
    assert error.code == ferry.Errc.MISSING


def test_bad_arguments_to_the_constructor(comm):
    layout = ferry.Layout.block(10 * comm.size, comm.size, comm.rank)
    error = raised(ferry.Exchange, "world", layout, layout)
    assert error.code == ferry.Errc.ARG and "mpi4py communicator" in str(error)
    error = raised(ferry.Exchange, comm, layout, layout, [np.complex128])
    assert error.code == ferry.Errc.ARG and "complex128 is not supported" in str(error)
    error = raised(ferry.Exchange, comm, layout, layout, ["no such type"])
    assert error.code == ferry.Errc.ARG and "is not a NumPy dtype" in str(error)
