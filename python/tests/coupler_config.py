"""The configuration files of the coupler tests: rank 0 writes, every rank reads."""

import os


def write_config(comm, directory, exchanges, start=0, length=1000, buffers=""):
    """Rank 0 writes the configuration; every rank gets its path."""
    path = os.path.join(directory, "coupling.yaml")
    entries = (f"exchanges:\n{exchanges}" if exchanges else "") + (
        f"buffers:\n{buffers}" if buffers else ""
    )
    if comm.rank == 0:
        with open(path, "w") as f:
            f.write(
                f"version: 1\nrun:\n  start: {start}\n  length: {length}\n"
                f"output:\n  directory: {directory}\n  timers: false\n"
                f"watchdog:\n  timeout: 30\n{entries}"
            )
    comm.Barrier()
    return path


def exchange(name, source, target, period, extra=""):
    return (
        f"  - name: {name}\n    source: {{component: atm, {source}}}\n"
        f"    target: {{component: ocn, {target}}}\n    period: {period}\n{extra}"
    )
