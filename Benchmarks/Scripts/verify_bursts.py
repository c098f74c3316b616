#!/usr/bin/env python3
"""make bench-verify-bursts: concurrent verify() calls, each burst the first of a fresh process.

    verify_bursts.py [--processes 5] [--calls 1,2,3,8] [--wait-quiet] LABEL=BINARY [LABEL=BINARY ...]

BINARY is the VerifyBursts program (Benchmarks/Sources/VerifyBursts): `BINARY
N` starts N `Resolver.verify()` calls at once in a task group, beside an
async factory that awaits for 20 ms, and prints the burst's wall time and
each call's. A burst is timed as the first thing its process does, so the
cooperative pool has the threads it starts with (a pool that has grown a
thread in an earlier burst hides a stall). For each count of calls this runs
PROCESSES processes per binary, alternating between the binaries (so that a
change in the machine lands on all alike), and prints the median burst and
the median slowest call, with each process's burst.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scaling_runs import wait_quiet  # noqa: E402

LINE = re.compile(r"^calls (\d+) burst_ms ([0-9.]+) each_ms ([0-9. ]+)$")


def run(binary, calls):
    """One process: (burst ms, slowest call ms)."""
    out = subprocess.run([binary, str(calls)], capture_output=True, text=True, timeout=600)
    for line in out.stdout.splitlines():
        match = LINE.match(line.strip())
        if match and int(match.group(1)) == calls:
            each = [float(x) for x in match.group(3).split()]
            return float(match.group(2)), max(each)
    sys.exit(f"{binary} {calls}: no result line (exit {out.returncode})\n{out.stdout}{out.stderr}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--processes", type=int, default=5)
    parser.add_argument("--calls", default="1,2,3,8")
    parser.add_argument("--wait-quiet", action="store_true")
    parser.add_argument("--max-wait", type=float, default=600)
    parser.add_argument("binaries", nargs="+", metavar="LABEL=BINARY")
    args = parser.parse_args()
    binaries = [b.split("=", 1) for b in args.binaries]
    counts = [int(c) for c in args.calls.split(",")]

    results = {(label, calls): [] for label, _ in binaries for calls in counts}
    beside_builds = {key: 0 for key in results}
    for calls in counts:
        for _ in range(args.processes):
            for label, binary in binaries:
                if args.wait_quiet:
                    _, building = wait_quiet(args.max_wait)
                    beside_builds[(label, calls)] += bool(building)
                results[(label, calls)].append(run(binary, calls))

    print(f"Concurrent verify() calls beside an async factory that awaits 20 ms: "
          f"median of {args.processes} fresh processes, milliseconds")
    print()
    print("| build | calls | burst (median) | slowest call (median) | each process's burst | beside a build |")
    print("|---|--:|--:|--:|---|--:|")
    for label, _ in binaries:
        for calls in counts:
            runs = results[(label, calls)]
            bursts = [burst for burst, _ in runs]
            slowest = [slow for _, slow in runs]
            print(f"| {label} | {calls} | {statistics.median(bursts):.0f} | {statistics.median(slowest):.0f} | "
                  + ", ".join(f"{b:.0f}" for b in bursts)
                  + f" | {beside_builds[(label, calls)] if args.wait_quiet else '?'} |")


if __name__ == "__main__":
    main()
