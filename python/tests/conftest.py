"""Runs the suite on every rank of ``mpiexec -n N python -m mpi4py -m pytest``.

All ranks run the same tests in the same order. After each phase of a test the
ranks agree on its outcome: a failure on any rank fails the test on every rank,
with each failing rank's report, so every rank exits with the same code. Only
rank 0 prints.
"""

import shutil
import tempfile

import pytest
from mpi4py import MPI

WORLD = MPI.COMM_WORLD


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
    failures = WORLD.allgather(report.longreprtext if report.failed else None)
    failed = [(rank, text) for rank, text in enumerate(failures) if text is not None]
    if failed:
        report.outcome = "failed"
        report.longrepr = "\n".join(f"--- rank {rank} ---\n{text}" for rank, text in failed)


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
