"""Runs the suite on every rank of ``mpiexec -n N python -m mpi4py -m pytest``.

All ranks run the same tests in the same order. After each phase of a test the
ranks agree on its outcome: a failure on any rank fails the test on every rank,
with each failing rank's report, so every rank exits with the same code. Only
rank 0 prints. A rank that failed while the others wait for it in a collective call
of the test prints its report and ends the job after FAILED_RANK_WAIT_S seconds,
instead of hanging until the test's timeout without a word.
"""

import shutil
import sys
import tempfile
import time

import pytest
from mpi4py import MPI

WORLD = MPI.COMM_WORLD
# The outcomes are agreed on a communicator of their own, so the agreement never
# matches a collective call a test left unfinished on another rank.
OUTCOMES = WORLD.Dup()
FAILED_RANK_WAIT_S = 30


# trylast: after the terminal plugin has registered its reporter.
@pytest.hookimpl(trylast=True)
def pytest_configure(config):
    if WORLD.rank != 0:
        reporter = config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            config.pluginmanager.unregister(reporter)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    wait_for_every_rank(report.longreprtext if report.failed else None)
    failures = OUTCOMES.allgather(report.longreprtext if report.failed else None)
    failed = [(rank, text) for rank, text in enumerate(failures) if text is not None]
    if failed:
        report.outcome = "failed"
        report.longrepr = "\n".join(f"--- rank {rank} ---\n{text}" for rank, text in failed)


def wait_for_every_rank(failure):
    """Returns once every rank has finished the phase. A rank whose phase failed gives
    the others FAILED_RANK_WAIT_S seconds: they may be waiting for it in a collective
    call it never made, and would never come."""
    request = OUTCOMES.Ibarrier()
    if failure is None:
        request.Wait()
        return
    deadline = time.monotonic() + FAILED_RANK_WAIT_S
    while not request.Test():
        if time.monotonic() > deadline:
            sys.stderr.write(
                f"--- rank {WORLD.rank} failed, and the other ranks did not finish the test "
                f"within {FAILED_RANK_WAIT_S} s (waiting for it in a collective call?); "
                f"ending the job ---\n{failure}\n"
            )
            sys.stderr.flush()
            WORLD.Abort(1)
        time.sleep(0.0005)


@pytest.fixture
def comm():
    return WORLD


@pytest.fixture
def shared_dir():
    """A fresh directory made by rank 0, known to every rank, removed afterwards."""
    path = tempfile.mkdtemp(prefix="ferry_python_") if WORLD.rank == 0 else None
    path = WORLD.bcast(path)
    yield path
    WORLD.Barrier()
    if WORLD.rank == 0:
        shutil.rmtree(path, ignore_errors=True)
