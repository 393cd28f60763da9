"""Runs one fault case and checks how every rank ended.

    run_fault.py --within SECONDS [--expect RANK=REGEX ...] [--expect-output REGEX]
                 [--exit zero|nonzero|any] -- COMMAND ...

The command (an mpiexec line) must end within SECONDS of its start, or it is killed
and the case fails: a hang becomes a failure with the output so far. Each --expect
needs a line "fault-case rank RANK: ..." (printed by the case programs) whose text
matches REGEX; --expect-output needs REGEX anywhere in stdout or stderr (what the MPI
runtime itself says). Prints the time taken, which the fault suite reports.
"""

import argparse
import os
import re
import signal
import subprocess
import sys
import time


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--within", type=float, required=True)
    parser.add_argument("--expect", action="append", default=[])
    parser.add_argument("--expect-output", action="append", default=[])
    parser.add_argument("--exit", choices=["zero", "nonzero", "any"], default="nonzero")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command

    start = time.monotonic()
    # A session of its own, so that a hang is ended with every process it started.
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True
    )
    try:
        output, _ = process.communicate(timeout=args.within)
        hung = False
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
        hung = True
    seconds = time.monotonic() - start
    text = output.decode(errors="replace")

    problems = []
    if hung:
        problems.append(f"still running after {args.within:g} s: killed")
    elif args.exit == "zero" and process.returncode != 0:
        problems.append(f"exit status {process.returncode}, expected 0")
    elif args.exit == "nonzero" and process.returncode == 0:
        problems.append("exit status 0, expected an error")
    lines = {}
    for match in re.finditer(r"^fault-case rank (\d+): (.*)$", text, re.MULTILINE):
        lines.setdefault(int(match.group(1)), []).append(match.group(2))
    for expectation in args.expect:
        rank, pattern = expectation.split("=", 1)
        said = lines.get(int(rank), [])
        if not any(re.search(pattern, line) for line in said):
            problems.append(f"rank {rank} said {said or 'nothing'}, expected /{pattern}/")
    for pattern in args.expect_output:
        if not re.search(pattern, text):
            problems.append(f"no /{pattern}/ in the output")

    print(text)
    print(f"case ended in {seconds:.1f} s (limit {args.within:g} s)")
    for problem in problems:
        print(f"FAILED: {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
