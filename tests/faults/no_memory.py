"""Allocations that fail inside ferry raise ferry.Error with code NO_MEMORY, like
FERRY_ERR_NO_MEMORY in C, not a bare MemoryError: a layout too large for this rank,
and an exchange whose buffers do not fit (the same on every rank). Run under a memory
limit (ulimit -v)."""

import sys

import numpy as np
from mpi4py import MPI

import ferry


def say(line):
    # One write per line: print() writes the text and its newline separately, and
    # mpiexec may put another rank's output between the two.
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


comm = MPI.COMM_WORLD
for what, make in (
    ("layout", lambda: ferry.Layout.block(1 << 34, 1, 0)),
    (
        "exchange",
        lambda: ferry.Exchange(
            comm,
            ferry.Layout.block(48, comm.size, comm.rank),
            ferry.Layout.round_robin(48, comm.size, comm.rank),
            [(np.float64, 1 << 24)],
            "p2p",
        ),
    ),
):
    try:
        make()
        said = "no error"
    except ferry.Error as error:
        said = f"{error.code.name}: {error}"
    except MemoryError as error:
        said = f"MemoryError: {error}"
    say(f"fault-case rank {comm.rank}: {what}: {said}")
