#!/usr/bin/env python3
"""`make bench-instructions`: instructions (and heap allocations) per operation
of every resolver scenario, counted by valgrind's callgrind inside the timed
batches only (`--toggle-collect=bench_measured_region`), where a machine has no
performance counters for the harness's own instruction metric. Counts repeat
exactly for a binary, so they catch what timing noise hides. The Makefile
builds the binary. A scenario whose operation is a whole new container
(cold-container) is also counted as the process's first one (no warm-up).

    python3 Scripts/instructions.py [BINARY] [--batches 5] [--scenario NAME ...] [--async-binary ASYNC]
                                    [--base-binary BASE --base-label LABEL]

With --base-binary (make bench-instructions BASE=<commit>: the same program built
against the library at that commit, Scripts/library-at.sh), this library's rows
are also counted in that binary, in a column of their own beside the others.

With --async-binary, also a cached resolve per call, synchronous (unnamed and
named) and with resolveAsync, from Sources/AsyncInstructionCounts: whole-program
callgrind totals at two loop counts, differenced (async code runs in partial
functions a toggled region would miss), with the heap allocations the extra
loops made (memcheck's count).
"""
import argparse, os, re, subprocess

from report import table

IMPLS = ["Resolver", "Swinject", "baseline", "floor"]
# The key of this library's counts in the --base-binary build.
BASE = "Resolver at base"
# Ours ÷ a reference, at most: the floor's instructions in the same row (the loop around a kept
# instance or direct construction), or ("ours, <scenario>") ours in another row (issue 28).
TARGETS = {"singleton": ("floor", 2.0), "transient": ("floor", 1.6), "default-scope": ("floor", 1.6),
           "graph": ("floor", 2.0), "argument": ("ours, default-scope", 1.3),
           "typed-argument": ("ours, transient", 1.15), "cold-container": ("floor", 5.0),
           # Issue 38: a resolve through a key against the same resolve by type, and a key's argument.
           "key-singleton": ("ours, singleton", 1.2), "key-transient": ("ours, transient", 1.2),
           "key-argument": ("ours, key-transient", 1.15)}
# The allocator's entry points: a call to one inside the region is a heap allocation.
ALLOCATORS = {"malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign"}


def callgrind(binary, scenario, impl, batches, warm_up, out):
    """Instructions collected inside the region, and calls to the allocator: callgrind counts
    calls made outside the region too, so only a difference of two runs tells the region's."""
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--collect-atstart=no",
                    "--toggle-collect=bench_measured_region", binary, scenario, impl, str(batches), str(warm_up)],
                   capture_output=True, check=True)
    names, callee, instructions, allocations = {}, None, 0, 0
    for line in open(out, encoding="utf-8", errors="replace"):
        if line.startswith(("totals:", "summary:")):
            instructions = int(line.split()[1])
        elif match := re.match(r"c?fn=\((\d+)\)(?: (.*))?", line):
            if match.group(2):
                names[match.group(1)] = match.group(2).strip()
            callee = names.get(match.group(1)) if line.startswith("cfn=") else None
        elif line.startswith("calls=") and callee in ALLOCATORS:
            allocations += int(line[6:].split()[0])
    return instructions, allocations


def count(binary, scenario, impl, batches, per_batch, out, warm_up=3):
    """(instructions, allocations) per operation inside the measured region: `batches` batches
    counted, and a run of one batch more for the allocations."""
    instructions, allocations = callgrind(binary, scenario, impl, batches, warm_up, out)
    _, more = callgrind(binary, scenario, impl, batches + 1, warm_up, out + ".more")
    os.remove(out + ".more")
    return instructions / (batches * per_batch), (more - allocations) / per_batch


ASYNC_MODES = ["sync", "sync-named", "async", "async-factory"]


def async_counts(binary, low=10_000, high=110_000):
    """Per resolve of each mode: (instructions, allocations per 100,000 resolves)."""
    def total(mode, count):
        out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", binary, mode,
                              str(count)], capture_output=True, text=True, check=True).stderr
        return int(re.search(r"Collected : (\d+)", out).group(1))

    def allocations(mode, count):
        out = subprocess.run(["valgrind", "--tool=memcheck", "--leak-check=no", binary, mode, str(count)],
                             capture_output=True, text=True, check=True).stderr
        return int(re.search(r"total heap usage: ([\d,]+) allocs", out).group(1).replace(",", ""))

    rows = []
    for mode in ASYNC_MODES:
        per = (total(mode, high) - total(mode, low)) / (high - low)
        extra = allocations(mode, high) - allocations(mode, low)
        print(f"    {mode}: {per:,.0f} instructions per resolve, {extra} allocations per {high - low:,}", flush=True)
        rows.append([mode, f"{per:,.0f}", f"{extra}"])
    return table(["cached resolve", "instructions per resolve", f"allocations per {high - low:,} resolves"], rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary", nargs="?")
    parser.add_argument("--batches", type=int, default=5)
    parser.add_argument("--scenario", action="append")
    parser.add_argument("--async-binary")
    parser.add_argument("--base-binary")
    parser.add_argument("--base-label", default="base")
    args = parser.parse_args()
    os.makedirs("results", exist_ok=True)
    async_table = async_counts(args.async_binary) if args.async_binary else None
    if not args.binary:
        text = ("# Instructions per cached resolve (callgrind, release, DWARF 4)\n\nWhole-program totals at two "
                "loop counts, differenced.\n\n" + async_table + "\n")
        print("\n" + text)
        open("results/async-instructions.md", "w", encoding="utf-8").write(text)
        return
    pairs = [line.split() for line in subprocess.run([args.binary, "list"], capture_output=True, text=True,
                                                     check=True).stdout.splitlines()]
    pairs = [p for p in pairs if not args.scenario or p[0] in args.scenario]
    base_pairs = [line.split() for line in subprocess.run([args.base_binary, "list"], capture_output=True,
                                                          text=True, check=True).stdout.splitlines()] \
        if args.base_binary else []
    os.makedirs("results/callgrind", exist_ok=True)
    counts, allocations, first = {}, {}, {}
    for index, (scenario, impl, per_batch) in enumerate(pairs, 1):
        counts[scenario, impl], allocations[scenario, impl] = count(
            args.binary, scenario, impl, args.batches, int(per_batch), f"results/callgrind/{scenario}.{impl}.out")
        print(f"    [{index}/{len(pairs)}] {scenario} {impl}: {counts[scenario, impl]:,.0f} instructions, "
              f"{allocations[scenario, impl]:g} allocations", flush=True)
        if int(per_batch) == 1:
            first[scenario, impl], _ = count(args.binary, scenario, impl, 1, 1,
                                             f"results/callgrind/{scenario}.{impl}.first.out", warm_up=0)
            print(f"        the process's first: {first[scenario, impl]:,.0f} instructions", flush=True)
        if args.base_binary and impl == "Resolver" and [scenario, impl, per_batch] in base_pairs:
            key = (scenario, BASE)
            counts[key], allocations[key] = count(args.base_binary, scenario, impl, args.batches, int(per_batch),
                                                  f"results/callgrind/{scenario}.base.out")
            print(f"        {args.base_label}: {counts[key]:,.0f} instructions, {allocations[key]:g} allocations",
                  flush=True)
            if int(per_batch) == 1:
                first[key], _ = count(args.base_binary, scenario, impl, 1, 1,
                                      f"results/callgrind/{scenario}.base.first.out", warm_up=0)
    cell = lambda key: f"{counts[key]:,.0f} · {allocations[key]:g}" if key in counts else "—"
    rows = []
    for scenario in dict.fromkeys(s for s, _, _ in pairs):
        ours, floor, swinject = (counts.get((scenario, i)) for i in ("Resolver", "floor", "Swinject"))
        target = ""
        if scenario in TARGETS and ours:
            against, most = TARGETS[scenario]
            reference = floor if against == "floor" else counts.get((against.split(", ")[1], "Resolver"))
            if reference:
                ratio = ours / reference
                target = f"≤ {most:g}× {against}: {ratio:.2f}× {'met' if ratio <= most else 'MISSED'}"
        base = counts.get((scenario, BASE))
        rows.append([scenario, *(cell((scenario, i)) for i in IMPLS),
                     *([cell((scenario, BASE)), f"{ours / base:.2f}×" if ours and base else "—"] if args.base_binary
                       else []),
                     f"{swinject / ours:.1f}×" if swinject and ours else "—",
                     f"{ours / floor:.2f}×" if ours and floor else "—", target])
    base_columns = [f"Resolver {args.base_label}", "ours ÷ base"] if args.base_binary else []
    lines = [table(["scenario", *IMPLS, *base_columns, "Swinject ÷ ours", "ours ÷ floor", "target"], rows)]
    if first:
        lines += ["", "A process's first container (no warm-up) against a later one:", "",
                  table(["scenario", "implementation", "first", "later", "first ÷ later"],
                        [[s, args.base_label if i == BASE else i, f"{first[s, i]:,.0f}", f"{counts[s, i]:,.0f}",
                          f"{first[s, i] / counts[s, i]:.2f}×"] for s, i in first])]
    if async_table:
        lines += ["", "A cached resolve per call, whole-program totals at two loop counts, differenced "
                  "(Sources/AsyncInstructionCounts):", "", async_table]
    text = ("# Instructions per operation (callgrind, release, DWARF 4)\n\nCells: instructions · heap allocations "
            "per operation. Each includes the benchmark loop's own work (receiving each result and releasing it): the "
            "floor is that loop around direct construction or a kept instance. "
            f"{args.batches} batches per cell (1,000 operations each; one new container each for cold-container); "
            "one thread.\n\n" + "\n".join(lines) + "\n")
    print("\n" + text)
    open("results/instructions.md", "w", encoding="utf-8").write(text)
    print("wrote results/instructions.md and results/callgrind/ (callgrind_annotate FILE)")


if __name__ == "__main__":
    main()
