#!/usr/bin/env python3
"""Checks that every file under src/ includes only headers of its own floor or below.

The floors, lowest first (docs/dev/architecture.md draws them):
    util -> io, core -> engines -> exchange -> collectives, regrid, halo, buffer
         -> config -> coupling -> capi
A folder may include its own headers and the private headers (src/<folder>/) of
lower floors; public headers (include/ferry/) of its own floor or below, each
counted on the floor of the code that implements it. Nothing above, and never a
sibling's private header. Usage: check_include_order.py SOURCE_ROOT
"""
import pathlib
import re
import sys

FLOORS = [
    ["util"],
    ["io", "core"],
    ["engines"],
    ["exchange"],
    ["collectives", "regrid", "halo", "buffer"],
    ["config"],
    ["coupling"],
    ["capi"],
]
FLOOR_OF = {folder: level for level, folders in enumerate(FLOORS) for folder in folders}

# include/ferry/<name>: the folder whose code implements it.
PUBLIC_HEADERS = {
    "config.hpp": "util", "comm.hpp": "util", "error.hpp": "util",
    "datatype.hpp": "core", "layout.hpp": "core", "plan.hpp": "core",
    "engine.hpp": "core", "engine_options.hpp": "core", "traffic.hpp": "core",
    "exchange.hpp": "exchange",
    "collectives.hpp": "collectives",
    "remap.hpp": "regrid", "weights.hpp": "regrid", "online_weights.hpp": "regrid",
    "grid_file.hpp": "regrid",
    "conservation.hpp": "regrid", "global_sum.hpp": "regrid",
    "halo.hpp": "halo", "cell_partition.hpp": "halo", "geodesic_mesh.hpp": "halo",
    "time_series_buffer.hpp": "buffer",
    "coupler.hpp": "coupling",
    "ferry.hpp": "capi",  # the umbrella names every floor
}
C_API_HEADER = re.compile(r"^[a-z_]+\.h$")  # ferry.h, regrid.h, ...: the C API floor

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def folder_of_header(header):
    """(folder, public) for an included header; folder None if it belongs to none."""
    parts = header.split("/")
    if parts[0] == "ferry" and len(parts) == 2:
        name = parts[1]
        if name in PUBLIC_HEADERS:
            return PUBLIC_HEADERS[name], True
        if C_API_HEADER.match(name):
            return "capi", True
        return None, True
    if parts[0] in FLOOR_OF:
        return parts[0], False
    return None, False


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "src")
    problems = []
    for path in sorted(root.rglob("*")):
        if path.suffix not in (".cpp", ".hpp", ".h"):
            continue
        own = path.relative_to(root).parts[0]
        if own not in FLOOR_OF:
            problems.append(f"{path}: folder \"{own}\" has no floor; add it to {__file__}")
            continue
        for header in INCLUDE.findall(path.read_text()):
            other, public = folder_of_header(header)
            if other is None:
                problems.append(f"{path}: includes \"{header}\", which belongs to no floor")
            elif other == own or FLOOR_OF[other] < FLOOR_OF[own]:
                continue
            elif FLOOR_OF[other] > FLOOR_OF[own]:
                problems.append(f"{path}: includes \"{header}\" of {other}/, a floor above {own}/")
            elif not public:
                problems.append(f"{path}: includes \"{header}\", a private header of {other}/, "
                                f"a sibling of {own}/ on the same floor; use its public header")
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} include(s) break the floors of docs/dev/architecture.md")
        return 1
    print("every include of src/ goes to its own floor or below")
    return 0


if __name__ == "__main__":
    sys.exit(main())
