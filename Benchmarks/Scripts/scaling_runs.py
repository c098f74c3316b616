#!/usr/bin/env python3
"""make bench-scaling-runs: the ScalingRuns program N times, each a fresh process.

    scaling_runs.py BINARY [--runs 20] [--ratio 0.9] [--label TEXT] [-- PROGRAM ARGUMENTS]

Each run prints its gains (total at 2 threads / total at 1, fresh threads per
measurement); this prints them as one table, a row per run, with the load
average before the run and whether another build was running, and the
verdict: every resolve scenario's gain (unique, default, graph, lazy) at least
RATIO times the construct floor's gain in the same run, in every run (not the
median). The singleton and the retain floor share one reference count by
design and are shown, not checked.
"""

import argparse
import os
import re
import subprocess
import sys

CHECKED = ["unique", "default", "graph", "lazy"]
SHOWN = ["construct", "read", "retain", "singleton"]


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return f.read().split()[0]
    except OSError:
        return "?"


def others_building():
    """Compiler or build processes running now (another engineer's build, say)."""
    try:
        out = subprocess.run(["ps", "-eo", "comm="], capture_output=True, text=True).stdout
    except OSError:
        return False
    return any(name.strip() in ("swift-frontend", "swift-build", "swiftc", "clang", "cc1", "ld", "ld.gold")
               for name in out.splitlines())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--ratio", type=float, default=0.9)
    parser.add_argument("--label", default="")
    argv = sys.argv[1:]
    program_args = argv[argv.index("--") + 1:] if "--" in argv else []
    args = parser.parse_args(argv[:argv.index("--")] if "--" in argv else argv)

    rows = []
    names = None
    for run in range(1, args.runs + 1):
        load = loadavg()
        busy = others_building()
        proc = subprocess.run([args.binary] + program_args, capture_output=True, text=True)
        if proc.returncode != 0:
            sys.stderr.write(proc.stdout + proc.stderr)
            sys.exit(f"run {run}: the program failed ({proc.returncode})")
        line = next((l for l in proc.stdout.splitlines() if l.startswith("RESULT ")), None)
        if line is None:
            sys.exit(f"run {run}: no RESULT line in\n{proc.stdout}")
        gains = {k: float(v) for k, v in re.findall(r"(\w+)=([0-9.]+)", line)}
        if names is None:
            names = [n for n in line.split()[1:]]
            names = [n.split("=")[0] for n in names]
        rows.append((run, load, busy, gains))
        floor = gains.get("construct")
        worst = min((gains[n] / floor for n in CHECKED if n in gains), default=float("nan")) if floor else float("nan")
        print(f"run {run:2}: load {load}{' (another build ran)' if busy else ''}: "
              + " ".join(f"{n}={gains[n]:.2f}" for n in names)
              + f"  lowest/floor {worst:.2f}", flush=True)

    shown = [n for n in names if n in CHECKED or n in SHOWN]
    print()
    title = "## Gains at 2 threads over 1 (total throughput), one process per run"
    print(title + (f": {args.label}" if args.label else ""))
    print()
    print("| run | load | " + " | ".join(shown) + " | lowest ÷ floor | ok |")
    print("|---:|---:|" + "---:|" * len(shown) + "---:|:---:|")
    passed = 0
    lowest_overall = None
    for run, load, busy, gains in rows:
        floor = gains.get("construct")
        ratios = [gains[n] / floor for n in CHECKED if n in gains] if floor else []
        lowest = min(ratios) if ratios else float("nan")
        ok = bool(ratios) and lowest >= args.ratio
        passed += ok
        if ratios:
            lowest_overall = lowest if lowest_overall is None else min(lowest_overall, lowest)
        cells = []
        for n in shown:
            cell = f"{gains[n]:.2f}"
            if n in CHECKED and floor and gains[n] / floor < args.ratio:
                cell = f"**{cell}**"
            cells.append(cell)
        print(f"| {run} | {load}{'*' if busy else ''} | " + " | ".join(cells)
              + f" | {lowest:.2f} | {'yes' if ok else 'NO'} |")
    print()
    print(f"checked: {', '.join(n for n in CHECKED if n in shown)} against construct (the floor) in the same run; "
          f"bold: below {args.ratio:.2f}x the floor's gain; load*: another build was running when the run started")
    verdict = "yes" if passed == len(rows) else "NO"
    print(f"every run >= {args.ratio:.2f}x the construct floor's gain: {verdict} "
          f"({passed} of {len(rows)} runs; lowest ratio {lowest_overall:.2f})")


if __name__ == "__main__":
    main()
