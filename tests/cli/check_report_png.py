"""Checks `ferry report --png`: the command succeeds and writes a PNG image.

    python3 check_report_png.py FERRY OUT.png TIMER_FILE_OR_DIR...

Exits 77 (skipped) when the interpreter ferry uses has no matplotlib, which ferry
reports as such; any other failure exits 1 with the command's output.
"""

import os
import subprocess
import sys

SKIPPED = 77
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def main(argv):
    ferry, out, *runs = argv[1:]
    if os.path.exists(out):
        os.remove(out)
    result = subprocess.run([ferry, "report", *runs, "--png", out], capture_output=True, text=True)
    output = result.stdout + result.stderr
    if result.returncode == 1 and "matplotlib is missing" in output:
        print(output)
        return SKIPPED
    if result.returncode != 0 or f"wrote {out}" not in output:
        print(f"ferry report --png exited {result.returncode}:\n{output}")
        return 1
    with open(out, "rb") as image:
        if image.read(len(PNG_SIGNATURE)) != PNG_SIGNATURE:
            print(f"{out} is not a PNG image")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
