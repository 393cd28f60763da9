"""Running `ferry bench exchange` in the SMPI simulator or on this machine's MPI."""

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "platforms"))
import hostfile  # noqa: E402  (lives next to the platform files it reads)

# SMPI settings that are about the simulator, not the machine (those are in the
# platform file): MPI calls cost no compute time (only the network is modelled),
# Open MPI's collective algorithms, and an alltoallv that works for any rank count.
SMPI_FLAGS = [
    "--cfg=smpi/simulate-computation:no",
    "--cfg=smpi/coll-selector:ompi",
    "--cfg=smpi/alltoallv:ring",
    "--log=root.thresh:warning",
    "--log=smpi_mpi.thresh:error",
]

# Open MPI may run as root and put more ranks than cores on this machine.
OPEN_MPI_ENV = {
    "OMPI_ALLOW_RUN_AS_ROOT": "1",
    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
    "OMPI_MCA_rmaps_base_oversubscribe": "1",
}


@dataclass
class Outcome:
    """What one run produced: JSON rows, or the reason it failed."""

    rows: list
    wall_s: float
    command: str
    error: str = ""


def relative(path, root):
    """A path as it should appear in reports: relative to the repository if inside it."""
    path = Path(path).resolve()
    try:
        return str(path.relative_to(root))
    except ValueError:
        return path.name


def _cache_env(cache):
    return {"FERRY_TUNING_CACHE": str(cache)} if cache else {}


def _run(argv, env, timeout, shown):
    start = time.monotonic()
    # A session of its own, so a timeout ends smpirun's simulator process too.
    with subprocess.Popen(argv, env={**os.environ, **env}, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, start_new_session=True) as process:
        try:
            stdout, stderr = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            return Outcome([], time.monotonic() - start, shown, f"timed out after {timeout} s")
    done = subprocess.CompletedProcess(argv, process.returncode, stdout, stderr)
    wall = time.monotonic() - start
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not rows:
        return Outcome([], wall, shown, f"exit {done.returncode}: " + _reason(done))
    return Outcome(rows, wall, shown)


def _reason(done):
    """The line that says why a run failed: ferry's error, SimGrid's verdict, or the last."""
    lines = (done.stderr + done.stdout).strip().splitlines() or ["no output"]
    for marker in ("ferry:", "CRITICAL", "Segmentation", "Bus error"):
        found = [line for line in lines if marker in line]
        if found:
            return found[0].rsplit("] ", 1)[-1] if marker == "CRITICAL" else found[0]
    return lines[-1]


def engines_of(ferry, launcher):
    """The engines a ferry build offers, from `ferry info` (launched as `launcher` says)."""
    done = subprocess.run(
        [*launcher, str(ferry), "info"], capture_output=True, text=True, check=True,
        env={**os.environ, **OPEN_MPI_ENV},
    )
    for line in done.stdout.splitlines():
        if line.startswith("engines:"):
            return [name.strip() for name in line.split(":", 1)[1].split(",")]
    raise RuntimeError(f"`ferry info` printed no engine list:\n{done.stdout}{done.stderr}")


class Simulator:
    """smpirun of the SMPI-built ferry on one platform, one engine per simulation."""

    def __init__(self, ferry, platform, root, repeat, timeout):
        self.ferry = Path(ferry)
        self.platform = Path(platform)
        self.cluster = hostfile.read_cluster(self.platform)
        self.root = root
        self.repeat = repeat
        self.timeout = timeout

    def launcher(self, ranks, hosts):
        return ["smpirun", "-np", str(ranks), "-platform", str(self.platform),
                "-hostfile", str(hosts), *SMPI_FLAGS]

    def engines(self):
        with tempfile.TemporaryDirectory() as work:
            hosts = Path(work) / "hosts"
            hosts.write_text(self.cluster.names[0] + "\n")
            return engines_of(self.ferry, self.launcher(1, hosts))

    def run(self, point, engine, cache=None, extra=()):
        """Simulates one engine; `cache`: the tuning cache file the adaptive engine uses;
        `extra`: more flags of `ferry bench exchange`."""
        lines = hostfile.hostfile_lines(self.cluster, point.src, point.dst)
        bench = ["bench", "exchange", *point.bench_args(), "--engine", engine, *extra,
                 "--repeat", str(self.repeat), "--json"]
        with tempfile.TemporaryDirectory() as work:
            hosts = Path(work) / "hosts"
            hosts.write_text("".join(line + "\n" for line in lines))
            argv = [*self.launcher(point.ranks, hosts), str(self.ferry), *bench]
            shown = " ".join([
                "smpirun", "-np", str(point.ranks), "-platform",
                relative(self.platform, self.root), "-hostfile", "hosts", *SMPI_FLAGS,
                relative(self.ferry, self.root), *bench,
            ])
            # SMPI writes its temporary copies of the program into the working directory.
            return _run(argv, {"TMPDIR": work, **_cache_env(cache)}, self.timeout, shown)


class RealMpi:
    """mpiexec of the normally built ferry on this machine, every engine in one run."""

    def __init__(self, ferry, root, repeat, timeout):
        self.ferry = Path(ferry)
        self.root = root
        self.repeat = repeat
        self.timeout = timeout

    def run(self, point, engine="all", cache=None):
        """Runs `engine` (all: every engine and the baseline); `cache` as for Simulator.run."""
        bench = ["bench", "exchange", *point.bench_args(), "--engine", engine,
                 "--repeat", str(self.repeat), "--json"]
        argv = ["mpiexec", "-n", str(point.ranks), str(self.ferry), *bench]
        shown = " ".join(["mpiexec", "-n", str(point.ranks),
                          relative(self.ferry, self.root), *bench])
        return _run(argv, {**OPEN_MPI_ENV, **_cache_env(cache)}, self.timeout, shown)
