#!/usr/bin/env python3
"""`make bench`: build the benchmark package in release, run every benchmark
through the ordo-one harness, and print the tables (Scripts/report.py).

    python3 Scripts/bench.py [harness arguments...]

Extra arguments go to `swift package benchmark`, e.g. `--target Resolvers` or
`--filter 'singleton:.*'`. Environment: BENCH_ROUNDS (default 3) and
BENCH_MAX_MS (default 150) are read by the benchmark processes themselves;
BENCH_SCALING=0 skips the scaling benchmark (Scripts/scaling.py) that
otherwise follows the tables.
"""
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.normpath(os.path.join(HERE, ".."))
RESULTS = os.path.join(PACKAGE, "results")
RAW = os.path.join(RESULTS, "raw")
JMH = os.path.join(RAW, "Current_run.jmh.json")
SWIFT = os.environ.get("SWIFT", "swift")

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
PROGRESS = re.compile(r"^\s*(\d+)% \[[- ]*\] ETA: \S+ \| (\w+):([^:]+):(\d+)\w:(.+)$")
# Lines the harness prints that say nothing about this package's results.
QUIET = (
    "Warning: running with the Swift runtime interposer",  # we do not use that trait (see README)
    "Note: skipping LD_PRELOAD of",
)


def loadavg():
    try:
        with open("/proc/loadavg", encoding="utf-8") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "?"


def run_checked(command, what):
    print(f"==> {what}: {' '.join(command)}", flush=True)
    started = time.monotonic()
    result = subprocess.run(command, cwd=PACKAGE)
    if result.returncode != 0:
        print(f"error: {what} failed (exit {result.returncode})", file=sys.stderr)
        sys.exit(result.returncode)
    print(f"    done in {time.monotonic() - started:.0f} s", flush=True)


def run_benchmarks(extra):
    command = [SWIFT, "package", "--allow-writing-to-package-directory", "benchmark",
               "--format", "jmh", "--path", os.path.relpath(RAW, PACKAGE), *extra]
    print(f"==> running the benchmarks: {' '.join(command)}", flush=True)
    rounds = os.environ.get("BENCH_ROUNDS", "3")
    budget = os.environ.get("BENCH_MAX_MS", "150")
    print(f"    each scenario: every implementation, {rounds} interleaved rounds of ~{budget} ms each, "
          "each benchmark in its own process; one line per finished scenario", flush=True)
    started = time.monotonic()
    process = subprocess.Popen(command, cwd=PACKAGE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, errors="replace", bufsize=1)
    current = None  # (target, scenario)
    implementations, rounds_seen = set(), set()
    scenario_started = started
    finished = 0

    def close_scenario():
        nonlocal finished
        if current is None:
            return
        finished += 1
        now = time.monotonic()
        print(f"    [{finished:3d}] {now - started:6.0f} s  {current[0]:<10} {current[1]:<24} "
              f"{len(implementations)} implementations × {len(rounds_seen)} rounds, {now - scenario_started:4.1f} s",
              flush=True)

    for raw_line in process.stdout:
        line = ANSI.sub("", raw_line).rstrip("\n")
        if not line.strip():
            continue
        match = PROGRESS.match(line)
        if match:
            target, scenario, round_number, impl = match.group(2), match.group(3), match.group(4), match.group(5)
            if (target, scenario) != current:
                close_scenario()
                current = (target, scenario)
                implementations, rounds_seen = set(), set()
                scenario_started = time.monotonic()
            implementations.add(impl)
            rounds_seen.add(round_number)
            continue
        if any(line.startswith(q) for q in QUIET):
            continue
        print("    " + line, flush=True)
    close_scenario()
    status = process.wait()
    print(f"    benchmarks finished in {time.monotonic() - started:.0f} s", flush=True)
    return status


def main():
    extra = sys.argv[1:]
    os.makedirs(RAW, exist_ok=True)
    if os.path.exists(JMH):
        os.remove(JMH)
    load_before = loadavg()
    print(f"==> load average before: {load_before} (on a busy machine the medians are slower and noisier)")
    print("==> first run builds the benchmark package in release: a few minutes "
          "(the harness, Swinject, the library); later runs rebuild only what changed", flush=True)
    for product in ("HashTables", "Resolvers"):
        run_checked([SWIFT, "build", "-c", "release", "--product", product], f"build {product}")
    status = run_benchmarks(extra)
    load_after = loadavg()
    if not os.path.exists(JMH):
        print(f"error: the harness wrote no results ({JMH}); exit {status}", file=sys.stderr)
        return status or 1
    print("==> report", flush=True)
    report = subprocess.run([sys.executable, os.path.join(HERE, "report.py"), JMH, "--results", RESULTS,
                             "--load-before", load_before, "--load-after", load_after])
    if status != 0:
        print(f"error: the harness exited with {status}: some benchmarks failed (see above)", file=sys.stderr)
        return status
    if report.returncode != 0:
        return report.returncode
    if os.environ.get("BENCH_SCALING", "1") == "0":
        return 0
    print("==> scaling: total throughput at 1..cores threads beside the floors (Scripts/scaling.py; "
          "BENCH_SCALING=0 skips it)", flush=True)
    return subprocess.run([sys.executable, os.path.join(HERE, "scaling.py")]).returncode


if __name__ == "__main__":
    sys.exit(main())
