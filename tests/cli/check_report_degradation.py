"""Checks `ferry report`'s degradation analysis on runs timed with output.imbalance.

    python3 check_report_degradation.py FERRY RUN_DIR...

Every component must have one row per run, each row's parts must add up to 100 %,
the smallest run of each component must have efficiency 1, and atm, whose ranks work
unequally (tests/cli/imbalanced_run.cpp), must show imbalance on more than one rank.
Exits 1 with the reason on the first failure.
"""

import json
import subprocess
import sys

PARTS = ["computation", "communication", "waiting", "imbalance", "copies", "io", "setup", "other"]


def check(rows, runs):
    components = {r["component"] for r in rows}
    if components != {"atm", "ocn"}:
        return f"components {sorted(components)}, expected atm and ocn"
    for name in components:
        mine = sorted((r for r in rows if r["component"] == name), key=lambda r: r["ranks"])
        if len(mine) != len(runs):
            return f"{name}: {len(mine)} rows, expected one per run ({len(runs)})"
        if abs(mine[0].get("efficiency", 0) - 1) > 1e-12:
            return f"{name}: efficiency of the smallest run is not 1: {mine[0]}"
        for r in mine:
            total = sum(r[f"{part}_pct"] for part in PARTS)
            if abs(total - 100) > 0.5:
                return f"{name} on {r['ranks']} ranks: the parts add up to {total:.2f} %"
            if not 0 < r["efficiency"] <= 1.5:
                return f"{name} on {r['ranks']} ranks: efficiency {r['efficiency']}"
    imbalanced = [r for r in rows if r["component"] == "atm" and r["ranks"] > 1]
    if not imbalanced or not all(r["imbalance_pct"] > 0 for r in imbalanced):
        return f"atm shows no imbalance on more than one rank: {imbalanced}"
    return None


def main(argv):
    ferry, *runs = argv[1:]
    result = subprocess.run([ferry, "report", "--json", *runs], capture_output=True, text=True)
    if result.returncode != 0:
        print(f"ferry report --json exited {result.returncode}:\n{result.stdout}{result.stderr}")
        return 1
    records = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    failure = check([r for r in records if r["report"] == "component"], runs)
    if failure:
        print(f"{failure}\n{result.stdout}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
