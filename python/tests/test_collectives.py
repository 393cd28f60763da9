"""ferry.Alltoallv and ferry.Allreduce: every algorithm against computed values.

Each value a rank receives is a function of the rank that sent it, the rank that
receives it and its place in the block, so the expected arrays are computed here on
every rank and compared exactly. The sums are of integer-valued numbers small enough
for every partial sum to be exact, so every algorithm must give the exact sum.
Each test makes all of its collective calls before it asserts anything, so a wrong
value on one rank cannot leave the others waiting in a collective call.
"""

import os
import pathlib

import numpy as np
import pytest
from agreed_errors import raises_everywhere
from mpi4py import MPI

import ferry

ALLTOALLV = ["mpi", "ring", "swap", "bruck"]
ALLREDUCE = ["mpi", "doubling", "halving", "ring"]
DTYPES = [np.float64, np.float32, np.int32, np.int64]
MPI_TYPES = {
    np.float64: MPI.DOUBLE,
    np.float32: MPI.FLOAT,
    np.int32: MPI.INT32_T,
    np.int64: MPI.INT64_T,
}
GAP = -7  # in the gaps between blocks: never sent, never overwritten


def uneven(src, dst):
    """Values rank src sends rank dst: 0 to 3, rank 1 sends nothing."""
    return 0 if src == 1 else (src + 2 * dst + 1) % 4


def to_rank_0(src, dst):
    """Everything to rank 0: the other ranks receive nothing."""
    return src + 1 if dst == 0 else 0


def value(src, dst, i):
    return 10000 * src + 100 * dst + i


def displacements(counts, order, gap):
    """Blocks placed in `order` with `gap` values before each block."""
    displs = [0] * len(counts)
    at = 0
    for k in order:
        at += gap
        displs[k] = at
        at += counts[k]
    return displs, at


def alltoallv_case(comm, counts_of):
    """The counts and displacements of this rank, with gaps, the send blocks in
    reverse rank order; the send array and the expected receive array."""
    p, r = comm.size, comm.rank
    send_counts = [counts_of(r, d) for d in range(p)]
    recv_counts = [counts_of(s, r) for s in range(p)]
    send_displs, send_size = displacements(send_counts, reversed(range(p)), 1)
    recv_displs, recv_size = displacements(recv_counts, range(p), 2)
    send = np.full(send_size, GAP)
    expected = np.full(recv_size, GAP)
    for d in range(p):
        block = [value(r, d, i) for i in range(send_counts[d])]
        send[send_displs[d] : send_displs[d] + send_counts[d]] = block
    for s in range(p):
        block = [value(s, r, i) for i in range(recv_counts[s])]
        expected[recv_displs[s] : recv_displs[s] + recv_counts[s]] = block
    return (send_counts, send_displs, recv_counts, recv_displs), send, expected


@pytest.mark.parametrize("shape", [uneven, to_rank_0])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("algorithm", ALLTOALLV)
def test_alltoallv_delivers_every_block(comm, algorithm, dtype, shape):
    counts, send, expected = alltoallv_case(comm, shape)
    send, expected = send.astype(dtype), expected.astype(dtype)
    transpose = ferry.Alltoallv(comm, *counts, dtype=dtype, algorithm=algorithm)
    got = np.full_like(expected, GAP)
    transpose.execute(send, got)
    # Executed again with other values: nothing is kept from the first call.
    again = np.full_like(expected, GAP)
    transpose.execute(send * 2, again)
    by_mpi4py = np.full_like(expected, GAP)
    mpi_type = MPI_TYPES[dtype]
    comm.Alltoallv(
        [send, (counts[0], counts[1]), mpi_type], [by_mpi4py, (counts[2], counts[3]), mpi_type]
    )
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(by_mpi4py, expected)
    np.testing.assert_array_equal(again, np.where(expected == GAP, GAP, expected * 2))
    assert transpose.algorithm == ferry.AlltoallvAlgorithm[algorithm.upper()]
    assert transpose.dtype == np.dtype(dtype)
    # The values the arrays must hold: up to the end of their last non-empty block.
    sizes = [
        max((d + c for c, d in zip(*pair) if c), default=0) for pair in (counts[:2], counts[2:])
    ]
    assert [transpose.send_size, transpose.recv_size] == sizes


def test_alltoallv_takes_the_enum_and_larger_arrays(comm):
    counts, send, expected = alltoallv_case(comm, uneven)
    transpose = ferry.Alltoallv(
        comm,
        np.asarray(counts[0], dtype=np.int32),
        tuple(counts[1]),
        *counts[2:],
        algorithm=ferry.AlltoallvAlgorithm.BRUCK,
    )
    # Values past the last block are neither read nor written.
    got = np.full(expected.size + 3, GAP, dtype=np.float64)
    transpose.execute(np.append(send, [1.5, 2.5]).astype(np.float64), got)
    assert transpose.algorithm == ferry.AlltoallvAlgorithm.BRUCK
    np.testing.assert_array_equal(got, np.append(expected, [GAP] * 3))


def test_alltoallv_takes_none_where_a_rank_receives_nothing(comm):
    counts, send, expected = alltoallv_case(comm, to_rank_0)
    transpose = ferry.Alltoallv(comm, *counts, dtype=np.int64)
    got = np.full(expected.size, GAP) if comm.rank == 0 else None
    transpose.execute(send, got)
    assert (transpose.recv_size == 0) == (comm.rank != 0)
    if comm.rank == 0:
        np.testing.assert_array_equal(got, expected)


def summand(rank, count, dtype):
    """Integer-valued, of both signs; int64 ones beyond 2^32."""
    i = np.arange(count)
    big = 2**40 if dtype == np.int64 else 1
    return ((rank + 1) * (i + 1) * big - 3 * rank * (i % 5)).astype(dtype)


@pytest.mark.parametrize("count", [0, 1, 7, 1000])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("algorithm", ALLREDUCE)
def test_allreduce_is_the_exact_sum_in_and_out_of_place(comm, algorithm, dtype, count):
    exact = sum(summand(r, count, dtype).astype(np.int64) for r in range(comm.size))
    exact = exact.astype(dtype)
    total = ferry.Allreduce(comm, count, dtype=dtype, algorithm=algorithm)
    send = summand(comm.rank, count, dtype)
    new = total.execute(send)
    given = np.empty(count, dtype=dtype)
    returned = total.execute(send, given)
    in_place = send.copy()
    same = total.execute(in_place, in_place)
    everyone = comm.allgather(new.tobytes() + given.tobytes() + in_place.tobytes())
    assert new.dtype == np.dtype(dtype) and new.shape == (count,)
    np.testing.assert_array_equal(new, exact)
    np.testing.assert_array_equal(given, exact)
    np.testing.assert_array_equal(in_place, exact)
    np.testing.assert_array_equal(send, summand(comm.rank, count, dtype))  # only read
    assert returned is given and same is in_place
    assert everyone == [everyone[0]] * comm.size
    assert total.algorithm == ferry.AllreduceAlgorithm[algorithm.upper()]
    assert (total.count, total.dtype) == (count, np.dtype(dtype))


@pytest.mark.parametrize("algorithm", ALLREDUCE[1:])
def test_allreduce_gives_every_rank_the_same_bits_each_time(comm, algorithm):
    # Sums that round: the order of the additions shows in the last bits, but each
    # algorithm's order is fixed and the same for every rank.
    values = np.random.default_rng(comm.rank).standard_normal(257) * 10.0 ** (comm.rank % 7)
    total = ferry.Allreduce(
        comm, values.size, algorithm=ferry.AllreduceAlgorithm[algorithm.upper()]
    )
    first, second = total.execute(values), total.execute(values)
    everyone = comm.allgather(first.tobytes())
    reference = np.sum(comm.allgather(values), axis=0)
    assert everyone == [everyone[0]] * comm.size
    assert first.tobytes() == second.tobytes()
    np.testing.assert_allclose(first, reference, rtol=1e-12, atol=1e-9)


def cache_key(ranks, operation, size_class):
    """The key `ferry tune kernels` writes: the MPI library is the first line of its
    version, without '|'."""
    library = MPI.Get_library_version().split("\n")[0].rstrip(" \0").replace("|", "/")
    return f"ranks={ranks} tuned={operation} bytes={size_class} mpi={library}"


def test_tuned_algorithms_without_a_cache_are_the_fallback(comm, shared_dir):
    missing = os.path.join(shared_dir, "missing.txt")
    for cache in (None, "", missing):
        assert ferry.tuned_alltoallv_algorithm(comm, cache, 64) == ferry.AlltoallvAlgorithm.MPI
        assert ferry.tuned_allreduce_algorithm(comm, cache, 64) == ferry.AllreduceAlgorithm.MPI
        got = ferry.tuned_alltoallv_algorithm(comm, cache, 64, fallback="swap")
        assert got == ferry.AlltoallvAlgorithm.SWAP
        got = ferry.tuned_allreduce_algorithm(
            comm, cache, 64, fallback=ferry.AllreduceAlgorithm.RING
        )
        assert got == ferry.AllreduceAlgorithm.RING


def test_tuned_algorithms_read_the_winners_of_ferry_tune_kernels(comm, shared_dir):
    path = os.path.join(shared_dir, "tuning.txt")
    p = comm.size
    if comm.rank == 0:
        with open(path, "w") as cache:
            cache.write(
                "ferry-tuning-cache 1\n"
                "# Written by ferry tune kernels\n"
                f"{cache_key(p, 'alltoallv', 32)} | bruck | mpi=2.0e-06 bruck=1.0e-06\n"
                f"{cache_key(p, 'allreduce', 128)} | halving | mpi=2.0e-06 halving=1.0e-06\n"
                f"{cache_key(p, 'allreduce', 512)} | warp | mpi=2.0e-06 warp=1.0e-06\n"
                f"{cache_key(p + 1, 'allreduce', 8)} | ring | ring=1.0e-06\n"
            )
    comm.Barrier()
    a2a = [ferry.tuned_alltoallv_algorithm(comm, path, n) for n in (8, 32, 127, 128)]
    a2a.append(ferry.tuned_alltoallv_algorithm(comm, pathlib.Path(path), 100, "ring"))
    sums = [ferry.tuned_allreduce_algorithm(comm, path, n, "ring") for n in (4, 8, 128, 511, 512)]
    A, R = ferry.AlltoallvAlgorithm, ferry.AllreduceAlgorithm
    assert a2a == [A.MPI, A.BRUCK, A.BRUCK, A.MPI, A.BRUCK]
    # Below 8 bytes, no entry for 8 at this rank count, the class of 128, an unknown name.
    assert sums == [R.RING, R.RING, R.HALVING, R.HALVING, R.RING]


def test_bad_arguments_fail_alike_on_every_rank(comm):
    p, last = comm.size, comm.rank == comm.size - 1
    counts = [2] * p
    displs = list(range(0, 2 * p, 2))
    raises_everywhere(
        ferry.Errc.ARG,
        r'Alltoallv: algorithm is .fast.; use one of "mpi", "ring", "swap", "bruck"',
        lambda: ferry.Alltoallv(
            comm, counts, displs, counts, displs, algorithm="fast" if last else "ring"
        ),
        rank=p - 1,
    )
    raises_everywhere(
        ferry.Errc.ARG,
        r'Allreduce: algorithm is .recursive.; use one of "mpi", "doubling", "halving", "ring"',
        lambda: ferry.Allreduce(comm, 4, algorithm="recursive"),
    )
    raises_everywhere(
        ferry.Errc.ARG,
        r"tuned_allreduce_algorithm: fallback is .fastest.; use one of",
        lambda: ferry.tuned_allreduce_algorithm(comm, None, 64, "fastest" if last else "mpi"),
        rank=p - 1,
    )
    raises_everywhere(
        ferry.Errc.ARG,
        r"tuned_alltoallv_algorithm: cache is 3; give the path of the tuning cache file",
        lambda: ferry.tuned_alltoallv_algorithm(comm, 3 if last else None, 64),
        rank=p - 1,
    )
    raises_everywhere(
        ferry.Errc.ARG,
        r"Alltoallv: send_counts cannot be read as int64 values",
        lambda: ferry.Alltoallv(comm, None if last else counts, displs, counts, displs),
        rank=p - 1,
    )
    raises_everywhere(
        ferry.Errc.ARG_SIZE,
        rf"Alltoallv: send_counts has {p + 1} entries, expected one per rank \({p}\)",
        lambda: ferry.Alltoallv(comm, counts + [2] if last else counts, displs, counts, displs),
        rank=p - 1,
    )
    raises_everywhere(
        ferry.Errc.ARG,
        r"Alltoallv: recv_displs cannot be read as int64 values",
        lambda: ferry.Alltoallv(comm, counts, displs, counts, [0.5] * p if last else displs),
        rank=p - 1,
    )
    raises_everywhere(
        ferry.Errc.ARG,
        r"Alltoallv: dtype float16 is not supported",
        lambda: ferry.Alltoallv(comm, counts, displs, counts, displs, dtype=np.float16),
    )
    more = [3] + counts[1:] if last else counts
    raises_everywhere(
        ferry.Errc.ARG_SIZE,
        rf"Alltoallv: rank {p - 1} expects recv_counts\[0\] = 3 values from rank 0, which sends 2",
        lambda: ferry.Alltoallv(comm, counts, displs, more, displs),
        rank=p - 1,
    )
    raises_everywhere(
        ferry.Errc.ARG,
        rf"Allreduce: count is -1 on rank {p - 1}, expected >= 0",
        lambda: ferry.Allreduce(comm, -1 if last else 4),
        rank=p - 1,
    )
    raises_everywhere(
        ferry.Errc.ARG,
        r"Allreduce: count must be an integer",
        lambda: ferry.Allreduce(comm, 4.0 if last else 4),
        rank=p - 1,
    )
    if p > 1:
        raises_everywhere(
            ferry.Errc.ARG,
            r"Allreduce: the ranks pass different count \(from 4 to 5\)",
            lambda: ferry.Allreduce(comm, 5 if last else 4),
        )
        raises_everywhere(
            ferry.Errc.ARG,
            r"Alltoallv: the ranks pass different algorithm \(from ring to swap\)",
            lambda: ferry.Alltoallv(
                comm, counts, displs, counts, displs, algorithm="swap" if last else "ring"
            ),
        )
        raises_everywhere(
            ferry.Errc.ARG,
            r"Allreduce: the ranks pass different type \(from float64 to int64\)",
            lambda: ferry.Allreduce(comm, 4, dtype=np.int64 if last else np.float64),
        )


def test_wrong_arrays_fail_before_anything_moves(comm):
    # Wrong on every rank alike: execute checks each rank's arrays, with no agreement.
    p = comm.size
    counts = [2] * p
    displs = list(range(0, 2 * p, 2))
    transpose = ferry.Alltoallv(comm, counts, displs, counts, displs)
    send, recv = np.zeros(2 * p), np.zeros(2 * p)
    raises_everywhere(
        ferry.Errc.ARG,
        r"Alltoallv.execute: send has dtype float32 on rank \d+, expected float64",
        lambda: transpose.execute(send.astype(np.float32), recv),
    )
    raises_everywhere(
        ferry.Errc.ARG_SIZE,
        rf"Alltoallv.execute: recv has {2 * p - 1} values on rank \d+, expected at least {2 * p}",
        lambda: transpose.execute(send, recv[1:]),
    )
    raises_everywhere(
        ferry.Errc.ARG,
        r"Alltoallv.execute: send is a list on rank \d+",
        lambda: transpose.execute(send.tolist(), recv),
    )
    raises_everywhere(
        ferry.Errc.ARG,
        r"Alltoallv.execute: recv is not C-contiguous",
        lambda: transpose.execute(send, np.zeros(4 * p)[::2]),
    )
    read_only = np.zeros(2 * p)
    read_only.flags.writeable = False
    raises_everywhere(
        ferry.Errc.ARG,
        r"Alltoallv.execute: recv is read-only",
        lambda: transpose.execute(send, read_only),
    )
    raises_everywhere(
        ferry.Errc.ARG,
        r"Alltoallv.execute: send and recv share memory on rank \d+; pass separate arrays",
        lambda: transpose.execute(send, send),
    )
    total = ferry.Allreduce(comm, 4, dtype=np.int64)
    raises_everywhere(
        ferry.Errc.ARG_SIZE,
        r"Allreduce.execute: send has 3 values on rank \d+, expected 4",
        lambda: total.execute(np.zeros(3, dtype=np.int64)),
    )
    raises_everywhere(
        ferry.Errc.ARG,
        r"Allreduce.execute: recv has dtype float64 on rank \d+, expected int64",
        lambda: total.execute(np.zeros(4, dtype=np.int64), np.zeros(4)),
    )
    raises_everywhere(
        ferry.Errc.ARG_SIZE,
        r"Allreduce.execute: recv has 5 values on rank \d+, expected 4. The Allreduce was set up "
        r"for count=4 values per rank",
        lambda: total.execute(np.zeros(4, dtype=np.int64), np.zeros(5, dtype=np.int64)),
    )
    overlapping = np.zeros(5, dtype=np.int64)
    raises_everywhere(
        ferry.Errc.ARG,
        r"Allreduce.execute: send and recv share memory",
        lambda: total.execute(overlapping[:4], overlapping[1:]),
    )
