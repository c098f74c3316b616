#!/usr/bin/env python3
"""`make bench-instructions`: instructions per operation of every resolver
scenario, counted by valgrind's callgrind inside the timed batches only
(`--toggle-collect=bench_measured_region`), where a machine has no performance
counters for the harness's own instruction metric. Counts repeat exactly for a
binary, so they catch what timing noise hides. The Makefile builds the binary.

    python3 Scripts/instructions.py BINARY [--batches 5] [--scenario NAME ...]
"""
import argparse, os, subprocess

from report import table

IMPLS = ["Resolver", "Swinject", "baseline", "floor"]
# Ours ÷ a reference, at most: the floor's instructions in the same row (the loop around a kept
# instance or direct construction), or ("ours, <scenario>") ours in another row (issue 28).
TARGETS = {"singleton": ("floor", 2.0), "transient": ("floor", 1.5), "default-scope": ("floor", 1.5),
           "graph": ("floor", 1.8), "argument": ("ours, default-scope", 1.3),
           # Issue 38: a resolve through a key against the same resolve by type, and a key's argument.
           "key-singleton": ("ours, singleton", 1.2), "key-transient": ("ours, transient", 1.2),
           "key-argument": ("ours, key-transient", 1.15)}


def count(binary, scenario, impl, batches, out):
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--collect-atstart=no",
                    "--toggle-collect=bench_measured_region", binary, scenario, impl, str(batches)],
                   capture_output=True, check=True)
    totals = next(l for l in open(out) if l.startswith(("totals:", "summary:")))
    return int(totals.split()[1]) / (batches * 1000)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--batches", type=int, default=5)
    parser.add_argument("--scenario", action="append")
    args = parser.parse_args()
    pairs = [line.split() for line in subprocess.run([args.binary, "list"], capture_output=True, text=True,
                                                     check=True).stdout.splitlines()]
    pairs = [p for p in pairs if not args.scenario or p[0] in args.scenario]
    os.makedirs("results/callgrind", exist_ok=True)
    counts = {}
    for index, (scenario, impl) in enumerate(pairs, 1):
        counts[scenario, impl] = count(args.binary, scenario, impl, args.batches,
                                       f"results/callgrind/{scenario}.{impl}.out")
        print(f"    [{index}/{len(pairs)}] {scenario} {impl}: {counts[scenario, impl]:,.0f}", flush=True)
    rows = []
    for scenario in dict.fromkeys(s for s, _ in pairs):
        ours, floor, swinject = (counts.get((scenario, i)) for i in ("Resolver", "floor", "Swinject"))
        target = ""
        if scenario in TARGETS and ours:
            against, most = TARGETS[scenario]
            reference = floor if against == "floor" else counts.get((against.split(", ")[1], "Resolver"))
            if reference:
                ratio = ours / reference
                target = f"≤ {most:g}× {against}: {ratio:.2f}× {'met' if ratio <= most else 'MISSED'}"
        rows.append([scenario, *(f"{counts[scenario, i]:,.0f}" if (scenario, i) in counts else "—" for i in IMPLS),
                     f"{swinject / ours:.1f}×" if swinject and ours else "—",
                     f"{ours / floor:.2f}×" if ours and floor else "—", target])
    lines = [table(["scenario", *IMPLS, "Swinject ÷ ours", "ours ÷ floor", "target"], rows)]
    text = ("# Instructions per operation (callgrind, release, DWARF 4)\n\nEach cell includes the benchmark loop's "
            "own work (receiving each result and releasing it): the floor is that loop around direct construction "
            f"or a kept instance. {args.batches} × 1,000 operations per cell; one thread.\n\n" + "\n".join(lines) + "\n")
    print("\n" + text)
    open("results/instructions.md", "w", encoding="utf-8").write(text)
    print("wrote results/instructions.md and results/callgrind/ (callgrind_annotate FILE)")


if __name__ == "__main__":
    main()
