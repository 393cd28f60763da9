#!/usr/bin/env python3
"""Builds the wheel of ferry-coupler, checks what it holds, installs it in a fresh venv
and runs the `ferry` command from there.

    check_wheel.py SOURCE_DIR WORK_DIR [COMPILER_LAUNCHER]

The wheel is built with this Python's scikit-build-core and nanobind (no build
isolation, nothing downloaded) in WORK_DIR/build, which later runs reuse; a
COMPILER_LAUNCHER (ccache) is handed to CMake. It is built without optimisation and
without debug information (CMake's Debug with -O0 alone): what is checked here is the
packaging, and -O0 compiles the whole library about twice as fast as a release wheel's
-O3, and about 15% faster than -O0 -g. The venv gets the wheel without its
dependencies and sees this Python's NumPy (and mpi4py, for pyoasis) through a .pth file.
"""

import subprocess
import sys
import venv
import zipfile
from pathlib import Path


def run(*command: str) -> str:
    print("+", " ".join(command), flush=True)
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"check_wheel: exit status {done.returncode}\n{done.stdout}\n{done.stderr}")
    return done.stdout


def expect(condition: bool, what: str) -> None:
    if not condition:
        sys.exit(f"check_wheel: {what}")


def build_wheel(source: Path, work: Path, launcher: str) -> Path:
    dist = work / "dist"
    for old in dist.glob("*.whl"):
        old.unlink()
    command = [sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps",
               "--no-index", "-w", str(dist), f"--config-settings=build-dir={work / 'build'}",
               "--config-settings=cmake.build-type=Debug",
               "--config-settings=cmake.define.CMAKE_CXX_FLAGS_DEBUG=-O0",
               "--config-settings=cmake.define.CMAKE_C_FLAGS_DEBUG=-O0", str(source)]
    if launcher:
        command += [f"--config-settings=cmake.define.CMAKE_CXX_COMPILER_LAUNCHER={launcher}",
                    f"--config-settings=cmake.define.CMAKE_C_COMPILER_LAUNCHER={launcher}"]
    run(*command)
    wheels = list(dist.glob("ferry_coupler-*.whl"))
    expect(len(wheels) == 1, f"expected one ferry_coupler wheel in {dist}, found {wheels}")
    return wheels[0]


def check_contents(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        for needed in ["ferry/__init__.py", "ferry/__main__.py", "ferry/fortran_comm.py",
                       "ferry/py.typed", "ferry/_core.pyi", "ferry/bin/ferry",
                       "ferry/plot_report.py"]:
            expect(needed in names, f"{wheel.name} lacks {needed}")
        expect(any(n.startswith("ferry/_core.") and n.endswith(".so") for n in names),
               f"{wheel.name} lacks the module ferry/_core*.so")
        for needed in ["pyoasis/__init__.py", "pyoasis/component.py", "pyoasis/var.py",
                       "pyoasis/py.typed", "pyoasis/_oasis.pyi"]:
            expect(needed in names, f"{wheel.name} lacks {needed}")
        expect(any(n.startswith("pyoasis/_oasis.") and n.endswith(".so") for n in names),
               f"{wheel.name} lacks the module pyoasis/_oasis*.so")
        mode = archive.getinfo("ferry/bin/ferry").external_attr >> 16
        expect(mode & 0o111 != 0, f"ferry/bin/ferry is not executable in {wheel.name}")
        info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
        metadata = archive.read(f"{info}/METADATA").decode()
        expect("\nName: ferry-coupler\n" in metadata, "METADATA does not name ferry-coupler")
        entry_points = archive.read(f"{info}/entry_points.txt").decode()
        expect("ferry = ferry.__main__:main" in entry_points,
               f"no `ferry` console script in entry_points.txt:\n{entry_points}")
        unexpected = [n for n in names if n.startswith(("include/", "lib/", "share/"))]
        expect(not unexpected, f"the wheel holds more than the package: {unexpected[:5]}")


def install(wheel: Path, work: Path) -> Path:
    env = work / "venv"
    venv.EnvBuilder(clear=True, with_pip=False).create(env)
    python = env / "bin" / "python"
    run(sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
        "--no-index", str(wheel))
    import numpy  # the wheel's one dependency, from this Python

    site = Path(run(str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))")
                .strip())
    (site / "numpy_from_build.pth").write_text(str(Path(numpy.__file__).parents[1]) + "\n")
    return env


def main() -> None:
    source, work = Path(sys.argv[1]), Path(sys.argv[2])
    launcher = sys.argv[3] if len(sys.argv) > 3 else ""
    work.mkdir(parents=True, exist_ok=True)
    wheel = build_wheel(source, work, launcher)
    check_contents(wheel)
    env = install(wheel, work)
    version = run(str(env / "bin" / "ferry"), "--version")
    expect(version.startswith("ferry "), f"`ferry --version` printed {version!r}")
    same = run(str(env / "bin" / "python"), "-m", "ferry", "--version")
    expect(same == version, f"`python -m ferry --version` printed {same!r}, not {version!r}")
    info = run(str(env / "bin" / "ferry"), "info")
    expect("engines: " in info, f"`ferry info` printed {info!r}")
    imported = run(str(env / "bin" / "python"), "-c",
                   "import ferry; print(ferry.__version__, ferry.__file__)")
    expect(str(env) in imported, f"`import ferry` did not load the installed package: {imported}")
    # pyoasis beside ferry (mpi4py, like NumPy, from this Python).
    imported = run(str(env / "bin" / "python"), "-c",
                   "import pyoasis; print(pyoasis.OASIS.OUT.value, pyoasis.__file__)")
    expect(imported.startswith("20 ") and str(env) in imported,
           f"`import pyoasis` did not load the installed package: {imported}")
    print(f"{wheel.name}: modules, command and console script present; {version.strip()}")


if __name__ == "__main__":
    main()
