#!/usr/bin/env python3
"""Checks that every file under src/ includes only headers of its own floor or below.

The floors, lowest first (docs/dev/architecture.md draws them):
    util -> io, core -> engines -> exchange -> collectives, regrid, halo, buffer
         -> config -> coupling -> capi
A folder may include its own headers and the private headers (src/<folder>/) of
lower floors; public headers (include/ferry/) of its own floor or below, each
counted on the floor of the code that implements it. Nothing above, and never a
sibling's private header.

Inside engines/, each engine has a folder of its own (engines/p2p/, engines/butterfly/,
...) that only its engine includes: an engine folder includes its own headers, the
shared files of engines/ itself and the tuning toolkit (engines/tuning/), never
another engine's folder; other floors include only the shared files and the tuning
toolkit. Engines reach each other through the registry (ferry/engine.hpp); the
registry itself (engines/registry.cpp) is the one file that names every engine.

Usage: check_include_order.py SOURCE_ROOT
       check_include_order.py --self-test   (checks the rules on a tree of known cases)
"""
import pathlib
import re
import sys
import tempfile

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
    "exchange_share.hpp": "engines",
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

# Subfolders of engines/ that every engine and the floors above may include.
SHARED_ENGINE_FOLDERS = {"tuning"}
REGISTRY = ("engines", "registry.cpp")


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


def engine_folder(parts):
    """The engine subfolder of a path under engines/ ("p2p", "tuning"), or None."""
    if len(parts) > 2 and parts[0] == "engines":
        return parts[1]
    return None


def engine_problem(path, parts, header):
    """Why `path` (its parts below SOURCE_ROOT) may not include `header`, or None."""
    target = engine_folder(header.split("/"))
    if target is None or target in SHARED_ENGINE_FOLDERS:
        return None
    own = engine_folder(parts)
    if own == target or tuple(parts) == REGISTRY:
        return None
    who = f"engines/{own}/" if own else f"{parts[0]}/"
    return (f"{path}: includes \"{header}\", a private header of engines/{target}/; "
            f"{who} reaches that engine through the registry (ferry/engine.hpp) and its "
            f"options, or through a shared file of engines/ or engines/tuning/")


def find_problems(root):
    """Every include under `root` that breaks a rule, one line each."""
    problems = []
    for path in sorted(root.rglob("*")):
        if path.suffix not in (".cpp", ".hpp", ".h"):
            continue
        parts = path.relative_to(root).parts
        own = parts[0]
        if own not in FLOOR_OF:
            problems.append(f"{path}: folder \"{own}\" has no floor; add it to {__file__}")
            continue
        for header in INCLUDE.findall(path.read_text()):
            reason = engine_problem(path, parts, header)
            if reason:
                problems.append(reason)
                continue
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
    return problems


# (file under src/, the header it includes, allowed?)
SELF_TEST_CASES = [
    ("coupling/a.cpp", "regrid/weights_builder.hpp", True),
    ("regrid/a.cpp", "coupling/link.hpp", False),
    ("regrid/a.cpp", "halo/halo_rings.hpp", False),
    ("regrid/a.cpp", "ferry/halo.hpp", True),
    ("engines/adaptive/a.cpp", "engines/tuning/candidate.hpp", True),
    ("engines/adaptive/a.cpp", "engines/field_set.hpp", True),
    ("engines/adaptive/a.cpp", "engines/adaptive/adaptive_engine.hpp", True),
    ("engines/adaptive/a.cpp", "engines/butterfly/hop_schedule.hpp", False),
    ("engines/butterfly/a.cpp", "engines/tuning/candidate.hpp", True),
    ("engines/tuning/a.cpp", "engines/butterfly/hop_schedule.hpp", False),
    ("engines/packed_engine.cpp", "engines/p2p/p2p_engine.hpp", False),
    ("engines/registry.cpp", "engines/p2p/p2p_engine.hpp", True),
    ("collectives/a.cpp", "engines/tuning/tuning_cache.hpp", True),
    ("collectives/a.cpp", "engines/rma/rma_engine.hpp", False),
]


def self_test():
    failures = []
    for file, header, allowed in SELF_TEST_CASES:
        with tempfile.TemporaryDirectory() as tmp:
            path = pathlib.Path(tmp) / file
            path.parent.mkdir(parents=True)
            path.write_text(f'#include "{header}"\n')
            found = find_problems(pathlib.Path(tmp))
        if bool(found) == allowed:
            verdict = "refused" if allowed else "allowed"
            failures.append(f"{file} including {header} is {verdict}: {found}")
    for f in failures:
        print(f)
    right = len(SELF_TEST_CASES) - len(failures)
    print(f"{right} of {len(SELF_TEST_CASES)} known cases judged right")
    return 1 if failures else 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "src")
    problems = find_problems(root)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} include(s) break the floors of docs/dev/architecture.md")
        return 1
    print("every include of src/ goes to its own floor or below, and no engine's folder is "
          "included from outside it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
