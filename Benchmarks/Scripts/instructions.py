#!/usr/bin/env python3
"""`make bench-instructions`: instructions per operation for the resolver
scenarios, counted by valgrind's callgrind. Instruction counts barely move with
machine load, so they catch regressions that the timing noise hides.

1. Builds the InstructionCounts executable in release with DWARF 4 debug info
   (valgrind 3.19 cannot read DWARF 5) into Benchmarks/.build-callgrind.
2. Runs every (scenario, implementation) once under
   `valgrind --tool=callgrind --collect-atstart=no --toggle-collect=bench_measured_region`:
   only the timed batches are counted (set-up and warm-up are not).
3. Prints instructions per operation = counted instructions / operations, and
   writes results/instructions.md and .csv.

    python3 Scripts/instructions.py [--batches N] [--scenario NAME]
"""
import argparse
import csv
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.normpath(os.path.join(HERE, ".."))
SCRATCH = os.path.join(PACKAGE, ".build-callgrind")
RESULTS = os.path.join(PACKAGE, "results")
OUT_DIR = os.path.join(RESULTS, "callgrind")
SWIFT = os.environ.get("SWIFT", "swift")
BATCH = 1000
IMPLS = ["Resolver", "Swinject", "baseline", "floor"]
LABELS = {
    "singleton": "singleton (.application)",
    "named": "named singleton",
    "transient": "transient",
    "transient-1000": "transient, 1,000 others",
    "graph": "graph A(B(C),C)",
    "argument": "one argument",
    "register": "register",
    "mutex": "recursive mutex pair",
}
# Ours, as a multiple of the floor's instructions in the same scenario (the
# loop around a kept instance): instructions do not depend on the machine,
# but the loop's share does on the compiler, so the target is a ratio too.
TARGETS = {"singleton": 2.0}


def build():
    command = [SWIFT, "build", "-c", "release", "--product", "InstructionCounts", "--scratch-path", SCRATCH,
               "-Xswiftc", "-g", "-Xswiftc", "-dwarf-version=4", "-Xcc", "-gdwarf-4"]
    print("==> build (release, DWARF 4; the first time takes a few minutes): " + " ".join(command), flush=True)
    started = time.monotonic()
    result = subprocess.run(command, cwd=PACKAGE)
    if result.returncode != 0:
        sys.exit(result.returncode)
    print(f"    done in {time.monotonic() - started:.0f} s", flush=True)
    path = subprocess.run(command[:-6] + ["--show-bin-path"], cwd=PACKAGE, capture_output=True, text=True,
                          check=True).stdout.strip()
    return os.path.join(path, "InstructionCounts")


def total_instructions(out_file):
    """The 'totals:' (or 'summary:') line of a callgrind output file: Ir collected."""
    with open(out_file, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("totals:") or line.startswith("summary:"):
                return int(line.split()[1])
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--batches", type=int, default=int(os.environ.get("BENCH_CALLGRIND_BATCHES", "5")),
                        help="batches of 1,000 operations counted per scenario (default 5)")
    parser.add_argument("--scenario", action="append", help="only these scenarios (repeatable)")
    args = parser.parse_args()

    if not shutil.which("valgrind"):
        print("error: valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 1
    executable = build()
    pairs = subprocess.run([executable, "list"], capture_output=True, text=True, check=True).stdout.split("\n")
    pairs = [tuple(p.split()) for p in pairs if p.strip()]
    if args.scenario:
        pairs = [p for p in pairs if p[0] in args.scenario]
    os.makedirs(OUT_DIR, exist_ok=True)

    print(f"==> callgrind: {len(pairs)} runs, {args.batches} × {BATCH} operations each "
          "(valgrind is ~50× slower than native; about a minute in all)", flush=True)
    counts = {}
    for index, (scenario, impl) in enumerate(pairs, 1):
        out_file = os.path.join(OUT_DIR, f"{scenario}.{impl}.callgrind.out")
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}", "--collect-atstart=no",
                   "--toggle-collect=bench_measured_region", executable, scenario, impl, str(args.batches)]
        started = time.monotonic()
        result = subprocess.run(command, capture_output=True, text=True)
        total = total_instructions(out_file) if result.returncode == 0 and os.path.exists(out_file) else None
        if total is None:
            print(f"    [{index:2d}/{len(pairs)}] {scenario} {impl}: FAILED (exit {result.returncode})")
            print("\n".join("        " + l for l in result.stderr.strip().splitlines()[-15:]))
            continue
        per_op = total / (args.batches * BATCH)
        counts[(scenario, impl)] = per_op
        print(f"    [{index:2d}/{len(pairs)}] {scenario:<15} {impl:<9} {per_op:10,.0f} instructions/op "
              f"({time.monotonic() - started:.1f} s)", flush=True)

    headers = ["scenario", *IMPLS, "Swinject ÷ ours", "baseline ÷ ours", "ours − floor", "target (Resolver)", ""]
    rows, csv_rows, missed = [], [], 0
    scenarios = [s for s in LABELS if any((s, i) in counts for i in IMPLS)]
    for scenario in scenarios:
        cells = {i: counts.get((scenario, i)) for i in IMPLS}
        ours = cells["Resolver"]
        target = TARGETS.get(scenario)
        target_text, met_text = "", ""
        floor = counts.get((scenario, "floor"))
        if target and ours is not None and floor:
            target_text = f"≤ {target:g}× floor (is {ours / floor:.2f}×)"
            met_text = "met" if ours <= target * floor else "MISSED"
            missed += ours > target * floor

        def ratio(alt):
            return f"{alt / ours:.1f}×" if alt and ours else "—"

        rows.append([LABELS[scenario], *(f"{cells[i]:,.0f}" if cells[i] is not None else "—" for i in IMPLS),
                     ratio(cells["Swinject"]), ratio(cells["baseline"]),
                     f"+{ours - cells['floor']:,.0f}" if ours is not None and cells["floor"] is not None else "—",
                     target_text, met_text])
        for impl in IMPLS:
            if cells[impl] is not None:
                csv_rows.append({"scenario": scenario, "implementation": impl,
                                 "instructions_per_op": f"{cells[impl]:.1f}"})

    widths = [max(len(str(h)), *(len(str(r[i])) for r in rows)) for i, h in enumerate(headers)]

    def line(cells):
        return "| " + " | ".join(str(c).ljust(widths[i]) if i == 0 else str(c).rjust(widths[i])
                                 for i, c in enumerate(cells)) + " |"

    sep = "|" + "|".join((":" if i == 0 else "") + "-" * (w + 1) + ("" if i == 0 else ":")
                         for i, w in enumerate(widths)) + "|"
    table = "\n".join([line(headers), sep] + [line(r) for r in rows])
    text = ("# Instructions per operation (callgrind)\n\n"
            f"Counted inside the timed batches only ({args.batches} × {BATCH} operations per cell), release build "
            "with DWARF 4. The two-thread scenario is left out: valgrind runs one thread at a time, so it would "
            "count no contention. Every cell includes the benchmark loop's own work (the call that receives each result, "
            "and releasing it); the floor column is that same loop around direct construction or a kept "
            "instance.\n\n" + table + "\n")
    print()
    print(text)
    with open(os.path.join(RESULTS, "instructions.md"), "w", encoding="utf-8") as f:
        f.write(text)
    with open(os.path.join(RESULTS, "instructions.csv"), "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=["scenario", "implementation", "instructions_per_op"])
        writer.writeheader()
        writer.writerows(csv_rows)
    print(f"wrote {os.path.relpath(os.path.join(RESULTS, 'instructions.md'))}, instructions.csv, "
          f"and the raw callgrind files in {os.path.relpath(OUT_DIR)} (callgrind_annotate FILE)")
    return 1 if len(counts) < len(pairs) else 0


if __name__ == "__main__":
    sys.exit(main())
