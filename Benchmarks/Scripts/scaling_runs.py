#!/usr/bin/env python3
"""make bench-scaling-runs: the ScalingRuns program N times, each a fresh process.

    scaling_runs.py [--runs 20] [--ratio 0.9] [--wait-quiet] LABEL=BINARY [LABEL=BINARY ...] [-- PROGRAM ARGUMENTS]

Each run prints its gains (total at 2 threads / total at 1, fresh threads per
measurement). With several binaries (a base and this checkout, say) the runs
alternate between them, so that a change in the machine lands on both alike.
This prints one table per binary, a row per run, with the load average and
how busy the CPUs were just before the run, and the verdict: every resolve
scenario's gain (unique, default, graph, lazy) at least RATIO times the gain
of the construct floor measured beside it (alternating with it, measurement
by measurement: RESULT's <name>_floor), in every run (not the median). The
same check against the construct floor's own place in the run is shown
beside it. The singleton and the retain floor share one reference count by
design and are shown, not checked.

--wait-quiet: before each run, wait (up to --max-wait seconds) until the CPUs
were at least 90% idle over two seconds and no compiler, linker or valgrind
runs: on a machine shared with other builds, a run beside one measures the
other build, not the scaling.
"""

import argparse
import re
import subprocess
import sys
import time

CHECKED = ["unique", "default", "graph", "lazy"]
SHOWN = ["construct", "read", "retain", "singleton"]
BUILDERS = ("swift-frontend", "swift-build", "swiftc", "clang", "cc1", "ld", "ld.gold", "ld.lld",
            "valgrind", "memcheck-amd64-", "callgrind-amd64")


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return f.read().split()[0]
    except OSError:
        return "?"


def cpu_times():
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return idle, sum(fields)


def busy_fraction(seconds=2.0):
    """How busy the CPUs were over the next `seconds` (0 to 1), or None where /proc/stat is missing."""
    try:
        idle0, total0 = cpu_times()
        time.sleep(seconds)
        idle1, total1 = cpu_times()
    except OSError:
        return None
    total = total1 - total0
    return 1 - (idle1 - idle0) / total if total > 0 else None


def others_building():
    """Compiler, linker or valgrind processes running now (another engineer's build, say)."""
    try:
        out = subprocess.run(["ps", "-eo", "comm="], capture_output=True, text=True).stdout
    except OSError:
        return False
    return any(name.strip() in BUILDERS for name in out.splitlines())


def wait_quiet(max_wait):
    """Waits until the machine is quiet; returns (busy fraction, whether a build ran) as last seen."""
    deadline = time.time() + max_wait
    while True:
        busy = busy_fraction()
        building = others_building()
        if (busy is None or busy < 0.10) and not building:
            return busy, building
        if time.time() > deadline:
            return busy, building
        time.sleep(5)


def run_once(binary, program_args):
    proc = subprocess.run([binary] + program_args, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout + proc.stderr)
        sys.exit(f"{binary}: the program failed ({proc.returncode})")
    line = next((l for l in proc.stdout.splitlines() if l.startswith("RESULT ")), None)
    if line is None:
        sys.exit(f"{binary}: no RESULT line in\n{proc.stdout}")
    names = [item.split("=")[0] for item in line.split()[1:]]
    gains = {k: float(v) for k, v in re.findall(r"(\w+)=([0-9.]+)", line)}
    return names, gains


def floor_for(gains, name, beside=True):
    """The floor gain a checked scenario is held to: the one measured beside it, else the construct run."""
    return gains.get(f"{name}_floor") if beside and f"{name}_floor" in gains else gains.get("construct")


def lowest_ratio(gains, beside=True):
    ratios = [gains[n] / floor for n in CHECKED if n in gains for floor in [floor_for(gains, n, beside)] if floor]
    return min(ratios) if ratios else None


def ratio_text(value):
    return f"{value:.2f}" if value is not None else "nan"


def summary(lowests, ratio):
    """How many runs' lowest ratios reach `ratio`, and the lowest of all."""
    known = [x for x in lowests if x is not None]
    return sum(x >= ratio for x in known), (min(known) if known else None)


def print_table(label, rows, names, ratio):
    shown = [n for n in names if n in CHECKED or n in SHOWN]
    print()
    print(f"## Gains at 2 threads over 1 (total throughput), one process per run: {label}")
    print()
    print("| run | load | busy before | " + " | ".join(shown)
          + " | floors beside | lowest ÷ floor beside | lowest ÷ construct | ok |")
    print("|---:|---:|---:|" + "---:|" * len(shown) + "---:|---:|---:|:---:|")
    lowests, lowests_construct = [], []
    for run, load, busy, building, gains in rows:
        lowest = lowest_ratio(gains)
        lowest_construct = lowest_ratio(gains, beside=False)
        lowests.append(lowest)
        lowests_construct.append(lowest_construct)
        cells = []
        for n in shown:
            cell = f"{gains[n]:.2f}"
            floor = floor_for(gains, n)
            if n in CHECKED and floor and gains[n] / floor < ratio:
                cell = f"**{cell}**"
            cells.append(cell)
        besides = [gains[f"{n}_floor"] for n in CHECKED if f"{n}_floor" in gains]
        besides_cell = f"{min(besides):.2f}–{max(besides):.2f}" if besides else "—"
        busy_cell = "?" if busy is None else f"{busy * 100:.0f}%"
        ok = lowest is not None and lowest >= ratio
        print(f"| {run} | {load}{'*' if building else ''} | {busy_cell} | " + " | ".join(cells)
              + f" | {besides_cell} | {ratio_text(lowest)} | {ratio_text(lowest_construct)} | {'yes' if ok else 'NO'} |")
    print()
    print(f"checked: {', '.join(n for n in CHECKED if n in shown)} against the construct floor measured beside each "
          f"(alternating with it) in the same run; bold: below {ratio:.2f}x that floor's gain; "
          f"busy before: the CPUs over the 2 s before the run; "
          f"load*: a compiler, linker or valgrind was running when the run started")
    passed, lowest_overall = summary(lowests, ratio)
    verdict = "yes" if passed == len(rows) else "NO"
    print(f"{label}: every run >= {ratio:.2f}x the gain of the floor beside each resolve: {verdict} "
          f"({passed} of {len(rows)} runs; lowest ratio {ratio_text(lowest_overall)})")
    passed, lowest_overall = summary(lowests_construct, ratio)
    print(f"{label}: the same against the construct floor's own place in the run: "
          f"{passed} of {len(rows)} runs; lowest ratio {ratio_text(lowest_overall)}")


def main():
    argv = sys.argv[1:]
    program_args = argv[argv.index("--") + 1:] if "--" in argv else []
    argv = argv[:argv.index("--")] if "--" in argv else argv
    parser = argparse.ArgumentParser()
    parser.add_argument("binaries", nargs="+", help="LABEL=BINARY, one or more (runs alternate between them)")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--ratio", type=float, default=0.9)
    parser.add_argument("--wait-quiet", action="store_true")
    parser.add_argument("--max-wait", type=float, default=600)
    args = parser.parse_args(argv)
    binaries = []
    for spec in args.binaries:
        label, sep, path = spec.partition("=")
        binaries.append((label, path) if sep else (path, path))

    results = {label: [] for label, _ in binaries}
    names = None
    for run in range(1, args.runs + 1):
        for label, binary in binaries:
            if args.wait_quiet:
                busy, building = wait_quiet(args.max_wait)
            else:
                busy, building = None, others_building()
            load = loadavg()
            names, gains = run_once(binary, program_args)
            results[label].append((run, load, busy, building, gains))
            lowest = lowest_ratio(gains)
            print(f"{label} run {run:2}: load {load}"
                  + ("" if busy is None else f", {busy * 100:.0f}% busy before")
                  + (" (a build was running)" if building else "") + ": "
                  + " ".join(f"{n}={gains[n]:.2f}" for n in names)
                  + f"  lowest/floor beside {ratio_text(lowest)}, /construct {ratio_text(lowest_ratio(gains, beside=False))}",
                  flush=True)
    for label, _ in binaries:
        print_table(label, results[label], names, args.ratio)


if __name__ == "__main__":
    main()
