#!/usr/bin/env python3
"""`make bench`: build the benchmark package in release, run every benchmark
through the ordo-one harness, and print the tables (Scripts/report.py).

    python3 Scripts/bench.py [--base COMMIT] [harness arguments...]

Extra arguments go to `swift package benchmark`, e.g. `--target Resolvers` or
`--filter 'singleton:.*'`. Environment: BENCH_ROUNDS (default 3) and
BENCH_MAX_MS (default 150) are read by the benchmark processes themselves;
BENCH_SCALING=0 skips the scaling benchmark (Scripts/scaling.py) that
otherwise follows the tables.

--base COMMIT (`make bench BASE=COMMIT`) also builds the Resolvers benchmark
against the library at COMMIT (Scripts/benchbase.py) and runs the harness once
per round, alternating this checkout and the base (the base registers only
the "Resolver" implementation); the resolvers table then has a column for
the base beside ours.
"""
import os
import re
import subprocess
import sys
import time

import benchbase
from snapshot import short_sha

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


def run_checked(command, what, cwd=PACKAGE):
    print(f"==> {what}: {' '.join(command)}", flush=True)
    started = time.monotonic()
    result = subprocess.run(command, cwd=cwd)
    if result.returncode != 0:
        print(f"error: {what} failed (exit {result.returncode})", file=sys.stderr)
        sys.exit(result.returncode)
    print(f"    done in {time.monotonic() - started:.0f} s", flush=True)


def run_benchmarks(extra, package=PACKAGE, path=RAW, environment=None):
    """One harness run in `package`, its JMH export written into `path`; returns its exit status."""
    command = [SWIFT, "package", "--allow-writing-to-package-directory", "benchmark",
               "--format", "jmh", "--path", os.path.relpath(path, package), *extra]
    print(f"==> running the benchmarks: {' '.join(command)}"
          + (f" (in {os.path.relpath(package, PACKAGE)})" if package != PACKAGE else ""), flush=True)
    environment = environment or os.environ
    rounds = environment.get("BENCH_ROUNDS", "3")
    budget = environment.get("BENCH_MAX_MS", "150")
    who = f"implementations {environment['BENCH_ONLY']}" if environment.get("BENCH_ONLY") else "every implementation"
    print(f"    each scenario: {who}, {rounds} interleaved rounds of ~{budget} ms each, "
          "each benchmark in its own process; one line per finished scenario", flush=True)
    started = time.monotonic()
    process = subprocess.Popen(command, cwd=package, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, errors="replace", bufsize=1, env=environment)
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


def split_base(arguments):
    """(harness arguments, base commit or None): takes `--base COMMIT` / `--base=COMMIT` out."""
    rest, base = [], None
    iterator = iter(arguments)
    for argument in iterator:
        if argument == "--base":
            base = next(iterator, None)
            if not base:
                sys.exit("error: --base needs a commit")
        elif argument.startswith("--base="):
            base = argument[len("--base="):]
        else:
            rest.append(argument)
    return rest, base


def includes_resolvers(extra):
    """False when the harness arguments select targets and none of them is Resolvers."""
    targets = [extra[i + 1] for i, a in enumerate(extra[:-1]) if a == "--target"]
    targets += [a[len("--target="):] for a in extra if a.startswith("--target=")]
    return not targets or any(re.search(t, benchbase.BASE_PRODUCT) for t in targets)


def run_with_base(base, extra):
    """The harness once per round, alternating this checkout and the base commit.

    Returns (status, this checkout's exports, the base's exports, base label)."""
    base_package, sha = benchbase.prepare(base)
    run_checked([SWIFT, "build", "-c", "release", "--product", benchbase.BASE_PRODUCT],
                f"build {benchbase.BASE_PRODUCT} against the library at {sha} "
                f"({os.path.relpath(base_package, PACKAGE)}; the first time: a few minutes)", cwd=base_package)
    for name in os.listdir(RAW):
        if re.fullmatch(r"(current|base-\w+)-round\d+\.jmh\.json", name):
            os.remove(os.path.join(RAW, name))
    rounds = int(os.environ.get("BENCH_ROUNDS", "3"))
    print(f"==> {rounds} rounds, each one harness run for this checkout and one for {sha} (only its "
          "\"Resolver\"), alternating which goes first", flush=True)
    # (label, package, where its harness writes the export, extra environment)
    sides = [("current", PACKAGE, JMH, {}),
             (f"base-{sha}", base_package, os.path.join(base_package, os.path.basename(JMH)), {"BENCH_ONLY": "Resolver"})]
    status, exports = 0, {label: [] for label, *_ in sides}
    for round_number in range(1, rounds + 1):
        for label, package, written, overrides in (sides if round_number % 2 else sides[::-1]):
            print(f"==> round {round_number}/{rounds}: {label}", flush=True)
            environment = dict(os.environ, BENCH_ROUNDS="1", BENCH_FIRST_ROUND=str(round_number), **overrides)
            if os.path.exists(written):
                os.remove(written)
            status = run_benchmarks(extra, package, os.path.dirname(written), environment) or status
            if os.path.exists(written):
                kept = os.path.join(RAW, f"{label}-round{round_number}.jmh.json")
                os.replace(written, kept)
                exports[label].append(kept)
    return status, exports["current"], exports[f"base-{sha}"], f"base {sha}"


def main():
    extra, base = split_base(sys.argv[1:])
    if base and not includes_resolvers(extra):
        print(f"note: BASE={base} compares the resolvers only, and these arguments select no Resolvers target: "
              "running without the base", flush=True)
        base = None
    if base:
        short_sha(base)  # a commit that does not exist stops here, before any build
    os.makedirs(RAW, exist_ok=True)
    if os.path.exists(JMH):
        os.remove(JMH)
    load_before = loadavg()
    print(f"==> load average before: {load_before} (on a busy machine the medians are slower and noisier)")
    print("==> first run builds the benchmark package in release: a few minutes "
          "(the harness, Swinject, the library); later runs rebuild only what changed", flush=True)
    for product in ("HashTables", "Resolvers"):
        run_checked([SWIFT, "build", "-c", "release", "--product", product], f"build {product}")
    if base:
        status, exports, base_exports, base_label = run_with_base(base, extra)
        base_arguments = ["--base", *base_exports, "--base-label", base_label] if base_exports else []
    else:
        status = run_benchmarks(extra)
        exports, base_arguments = [JMH] if os.path.exists(JMH) else [], []
    load_after = loadavg()
    if not exports:
        print(f"error: the harness wrote no results ({RAW if base else JMH}); exit {status}", file=sys.stderr)
        return status or 1
    print("==> report", flush=True)
    report = subprocess.run([sys.executable, os.path.join(HERE, "report.py"), *exports, *base_arguments,
                             "--results", RESULTS, "--load-before", load_before, "--load-after", load_after])
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
