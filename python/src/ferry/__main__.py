"""The ``ferry`` command for Python installs.

``python -m ferry ARGS`` and the ``ferry`` console script both run the command-line
tool built with this package (``ferry/bin/ferry``): ``ferry --version``,
``ferry validate coupling.yaml``, ``mpiexec -n 4 ferry bench exchange --scenario toy``.
The tool replaces this Python process, so under ``mpiexec`` each rank runs it directly.
"""

import os
import sys
from pathlib import Path


def command_path() -> Path:
    """Where the command-line tool of this package is."""
    return Path(__file__).resolve().parent / "bin" / "ferry"


def main() -> None:
    """Runs the command-line tool with this process's arguments; does not return."""
    command = command_path()
    if not command.is_file():
        sys.exit(
            f"ferry: this installation has no command-line tool ({command} is missing). "
            "Build ferry with -DFERRY_BUILD_CLI=ON, or pip install ferry-coupler"
        )
    # `ferry report --png` plots with matplotlib from this Python unless told otherwise.
    os.environ.setdefault("FERRY_PYTHON", sys.executable)
    os.execv(command, [str(command), *sys.argv[1:]])


if __name__ == "__main__":
    main()
