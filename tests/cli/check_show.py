"""`ferry show`: the DOT of a configuration checked structurally, and the pictures.

Usage: check_show.py FERRY SOURCE_DIR OUTPUT_DIR
Every component is a cluster of its fields; every exchange and buffer a node with an
edge from each source field and to each target field; the labels carry the exchange's
settings. Graphviz's dot (when on PATH) must read the DOT and draw the PNG; without it
the PNG request fails with a message naming Graphviz, and the test is skipped (77).
"""

import pathlib
import re
import shutil
import subprocess
import sys

SKIP = 77


def show(ferry, *args):
    return subprocess.run([ferry, "show", *args], capture_output=True, text=True)


def check_structure(dot, failures):
    clusters = set(re.findall(r'subgraph "cluster_([^"]+)"', dot))
    if clusters != {"ocean", "atmosphere", "river"}:
        failures.append(f"clusters {sorted(clusters)}")
    edges = re.findall(r'^  "([^"]+)" -> "([^"]+)";$', dot, re.M)
    expected = {
        ("f:ocean/sea_surface_temperature", "x:sst"), ("x:sst", "f:atmosphere/sst"),
        ("f:atmosphere/net_heat_flux", "x:surface_fluxes"),
        ("f:atmosphere/fresh_water_flux", "x:surface_fluxes"),
        ("x:surface_fluxes", "f:ocean/qns"), ("x:surface_fluxes", "f:ocean/emp"),
        ("f:river/discharge", "x:runoff"), ("x:runoff", "f:ocean/runoff")}
    if set(edges) != expected or len(edges) != len(expected):
        failures.append(f"edges {sorted(edges)}")
    labels = dict(re.findall(r'^  "(x:[^"]+)" \[.*label="((?:[^"\\]|\\.)*)"\];$', dot, re.M))
    for node, words in {"x:sst": ["every 3600 s", "average", "output"],
                        "x:surface_fluxes": ["lag 1800 s", "accumulate", "sequence 1",
                                             "restart fluxes_restart.nc"],
                        "x:runoff": ["every 86400 s", "max", "engine adaptive (samples=5)"]}.items():
        for word in words:
            if word not in labels.get(node, ""):
                failures.append(f"{node}: no {word!r} in {labels.get(node)!r}")


def main():
    ferry, source, out = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
    out.mkdir(parents=True, exist_ok=True)
    failures = []
    result = show(ferry, str(source / "examples/config/ocean_atmosphere.yaml"))
    if result.returncode != 0:
        print(result.stdout, result.stderr)
        return 1
    check_structure(result.stdout, failures)
    buffers = show(ferry, str(source / "tests/data/config_with_buffers.yaml"), "--format", "dot")
    if not re.search(r'"b:history" \[shape=cylinder.*label="history\\nbuffer, lossless, 3 steps"',
                     buffers.stdout):
        failures.append("buffer history not drawn as a cylinder with its mode and capacity")
    usage = show(ferry, str(source / "examples/config/minimal.yaml"), "--format", "png")
    if usage.returncode != 2 or "needs -o FILE" not in usage.stderr:
        failures.append(f"png without -o: status {usage.returncode}, {usage.stderr!r}")
    invalid = show(ferry, str(source / "tests/data/rules/lag_longer_than_period.yaml"))
    if invalid.returncode != 1 or "lag 200 s is longer than the period" not in invalid.stderr:
        failures.append(f"an invalid configuration: status {invalid.returncode}")

    png = out / "ocean_atmosphere.png"
    png.unlink(missing_ok=True)
    drawn = show(ferry, str(source / "examples/config/ocean_atmosphere.yaml"),
                 "--format", "png", "-o", str(png))
    have_dot = shutil.which("dot") is not None
    if have_dot:
        parsed = subprocess.run(["dot", "-Tsvg"], input=result.stdout, capture_output=True,
                                text=True)
        if parsed.returncode != 0 or "<svg" not in parsed.stdout:
            failures.append(f"dot cannot read the DOT: {parsed.stderr}")
        if drawn.returncode != 0 or not png.exists() or \
                png.read_bytes()[:8] != b"\x89PNG\r\n\x1a\n" or png.stat().st_size < 1000:
            failures.append(f"no PNG drawn: {drawn.stderr}")
    elif drawn.returncode != 1 or "Graphviz" not in drawn.stderr:
        failures.append(f"without dot: status {drawn.returncode}, {drawn.stderr!r}")
    for failure in failures:
        print(failure)
    if failures:
        return 1
    print("ferry show: structure checked" + (", PNG drawn" if have_dot else ""))
    return 0 if have_dot else SKIP


if __name__ == "__main__":
    sys.exit(main())
