#!/usr/bin/env python3
"""Turns one benchmark run into the two side-by-side tables of `make bench`.

Input: the harness's JMH export (`swift package benchmark --format jmh`), where
every sample is 1,000 operations (scalingFactor .kilo): the wall-clock samples,
exported in microseconds per sample, are therefore nanoseconds per operation,
and the malloc counts per sample divided by 1,000 are mallocs per operation.

Benchmarks are named "<scenario>:<round><slot>:<implementation>" (see
Sources/BenchSupport/Interleaving.swift); the samples of all rounds of one
(scenario, implementation) are pooled and their median reported.

Output: both tables on stdout, and in the results directory
  hash-tables.md / .csv, resolvers.md / .csv, summary.md, lookup.png.

With --base FILE... (exports of the same Resolvers benchmark built against an
earlier commit of the library, `make bench BASE=…`), their "Resolver" samples
become one more column of the resolvers table, with "base ÷ ours".

Tables need only the Python 3 standard library; the plot needs matplotlib,
which this script installs with pip if it is missing (or says why it cannot).

    python3 Scripts/report.py results/raw/Current_run.jmh.json [--results results]
    python3 Scripts/report.py results/raw/current-round*.jmh.json \
        --base results/raw/base-SHA-round*.jmh.json --base-label "base SHA"
"""
import argparse
import csv
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys

# ---------------------------------------------------------------------------
# What the tables show
# ---------------------------------------------------------------------------

# "CRegistry+section" is the name TableImpl gives crg_get (a read section per lookup).
TABLE_IMPLS = ["CRegistry", "CRegistry+section", "Dictionary<Key>", "Dictionary<ObjectIdentifier>"]
TABLE_OPS = [("hit", "hit lookup"), ("miss", "miss lookup"), ("insert", "insert"), ("remove", "remove")]
TABLE_KINDS = ["unnamed", "named"]
TABLE_SIZES = [16, 1_000, 100_000, 1_000_000]

RESOLVER_IMPLS = ["Resolver", "Swinject", "baseline", "floor"]
# Our "Resolver" samples from the exports given with --base, under this key.
BASE_IMPL = "base"
RESOLVER_SCENARIOS = [
    ("singleton", "singleton (.application)"),
    ("named", "named singleton"),
    ("transient", "transient"),
    ("transient-1000", "transient, 1,000 others"),
    ("graph", "graph A(B(C),C)"),
    ("argument", "one argument"),
    ("two-threads", "two threads, 1 singleton"),
    ("register", "register"),
    ("mutex", "recursive mutex pair"),
]

# Measured on these machines by the author: original Resolver 1.5.1 and Swinject, ns/op.
REFERENCE = {
    "singleton": (347, 1274),
    "transient": (235, 1874),
    "named": (440, 1895),
    "graph": (1720, 7155),
    "argument": (631, 2076),
    "register": (339, 554),
    "two-threads": (1137, 5508),
}


# Targets are ratios to a floor or a peer measured in the same run, so that a
# verdict does not depend on how fast the machine is this hour; the absolute
# figures are shown as information. Each ratio is the absolute target it
# replaces, taken on the machine where that target was set (floors there:
# transient 84 ns, graph 220 ns), or the engine issue's own ratio.
RESOLVER_TARGETS = {
    # scenario: (what it is measured against, the most ours may be, times)
    "singleton": ("floor", 2.0),           # a retain+release of a kept instance
    "named": ("singleton", 1.15),          # ours, unnamed
    "transient": ("floor", 1.3),           # was floor + 25 ns
    "graph": ("floor", 1.4),               # was floor + 80 ns
    "argument": ("transient", 1.5),        # ours, without the argument
    "two-threads": ("floor", 1.5),         # was 120 ns per thread
    "register": ("Swinject", 0.5),         # was 120 ns
}


def resolver_target(scenario, cells, summary):
    """(description, met?) for our implementation in a scenario, or None."""
    ours = cells.get("Resolver")
    if ours is None or scenario not in RESOLVER_TARGETS:
        return None
    against, most = RESOLVER_TARGETS[scenario]
    if against in cells:
        other, label = cells.get(against), against
    else:
        other, label = summary.get(("Resolvers", against, "Resolver")), f"ours, {against}"
    if not other:
        return None
    ratio = ours["median"] / other["median"]
    text = f"≤ {most:g}× {label} (is {ratio:.2f}×)"
    ok = ratio <= most
    if scenario == "singleton":
        text += ", 0 mallocs"
        ok = ok and ours["mallocs"] == 0
    return text, ok


def table_target(op, kind, size, cells):
    """Targets for the C table's hit lookups, against Dictionary<Key> in the same run."""
    ours = cells.get("CRegistry")
    same_key = cells.get("Dictionary<Key>")
    if op != "hit" or ours is None or same_key is None or size not in (1_000, 1_000_000):
        return None
    speedup = same_key["median"] / ours["median"]
    least = 3.0 if size == 1_000 else 1.5  # was ≤ 8 ns (and 3×) at 1,000 keys; ≤ 40 ns at a million
    return f"≥ {least:g}× Dictionary<Key> (is {speedup:.1f}×)", speedup >= least


# ---------------------------------------------------------------------------
# Reading the export
# ---------------------------------------------------------------------------

PREFIX = "package.benchmark."
TIME_KEY = "Time (wall clock)"
MALLOC_KEY = "Malloc (total)"
BATCH = 1000  # operations per sample (scalingFactor .kilo)


def load(paths):
    """{(target, scenario, impl): {"time": [...], "malloc": [...], "rounds": {r: [...]}}}"""
    pooled = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            entries = json.load(f)
        for entry in entries:
            full = entry["benchmark"]
            if not full.startswith(PREFIX):
                continue
            target, name = full[len(PREFIX):].split(".", 1)
            try:
                scenario, slot, impl = name.split(":")
                round_number = int(slot[:-1])
            except ValueError:
                print(f"note: ignoring benchmark with an unexpected name: {name}", file=sys.stderr)
                continue
            metrics = entry.get("secondaryMetrics", {})
            if TIME_KEY not in metrics:
                print(f"note: {name} has no wall-clock samples", file=sys.stderr)
                continue
            # JMH exports time in microseconds per sample = nanoseconds per operation.
            times = list(metrics[TIME_KEY]["rawData"][0])
            mallocs = list(metrics.get(MALLOC_KEY, {}).get("rawData", [[]])[0])
            slot_data = pooled.setdefault((target, scenario, impl), {"time": [], "malloc": [], "rounds": {}})
            slot_data["time"] += times
            slot_data["malloc"] += mallocs
            slot_data["rounds"].setdefault(round_number, []).extend(times)
    summary = {}
    for key, data in pooled.items():
        times = sorted(data["time"])
        if not times:
            continue
        quartiles = statistics.quantiles(times, n=4) if len(times) >= 4 else [times[0], times[0], times[-1]]
        round_medians = {r: statistics.median(v) for r, v in sorted(data["rounds"].items())}
        summary[key] = {
            "median": statistics.median(times),
            "p25": quartiles[0],
            "p75": quartiles[2],
            "mallocs": statistics.median(data["malloc"]) / BATCH if data["malloc"] else float("nan"),
            "samples": len(times),
            "round_medians": round_medians,
        }
    return summary


# ---------------------------------------------------------------------------
# Formatting
# ---------------------------------------------------------------------------

def fmt_ns(ns):
    if ns < 10:
        return f"{ns:.2f}"
    if ns < 100:
        return f"{ns:.1f}"
    return f"{ns:,.0f}"


def fmt_mallocs(m):
    if m != m:  # NaN
        return "?"
    if m == 0:
        return "0"
    if abs(m - round(m)) < 1e-9:
        return f"{m:.0f}"
    if m < 0.1:
        return f"{m:.3f}"
    return f"{m:.2f}"


def fmt_cell(cell, note=""):
    if cell is None:
        return "—"
    return f"{fmt_ns(cell['median'])} ns · {fmt_mallocs(cell['mallocs'])}{note}"


def fmt_ratio(alternative, ours, digits=1):
    if alternative is None or ours is None or ours["median"] <= 0:
        return "—"
    return f"{alternative['median'] / ours['median']:.{digits}f}×"


def render(headers, rows, aligns=None):
    """A Markdown pipe table, padded so it also reads well in a terminal."""
    aligns = aligns or ["l"] + ["r"] * (len(headers) - 1)
    widths = [max(len(str(h)), *(len(str(r[i])) for r in rows)) if rows else len(str(h)) for i, h in enumerate(headers)]

    def line(cells):
        out = []
        for i, c in enumerate(cells):
            c = str(c)
            out.append(c.ljust(widths[i]) if aligns[i] == "l" else c.rjust(widths[i]))
        return "| " + " | ".join(out) + " |"

    sep = "|" + "|".join((":" + "-" * (w + 1)) if a == "l" else ("-" * (w + 1) + ":") for w, a in zip(widths, aligns)) + "|"
    return "\n".join([line(headers), sep] + [line(r) for r in rows])


def mark(met):
    return "met" if met else "MISSED"


# ---------------------------------------------------------------------------
# The two tables
# ---------------------------------------------------------------------------

def hash_table_rows(summary):
    rows, csv_rows, checks = [], [], []
    for kind in TABLE_KINDS:
        for op, op_label in TABLE_OPS:
            for size in TABLE_SIZES:
                scenario = f"{op}-{kind}-{size}"
                cells = {impl: summary.get(("HashTables", scenario, impl)) for impl in TABLE_IMPLS}
                if not any(cells.values()):
                    continue
                ours = cells["CRegistry"]
                target = table_target(op, kind, size, cells)
                target_text, met_text = ("", "")
                if target:
                    target_text, met_text = target[0], mark(target[1])
                    checks.append((f"CRegistry {op_label}, {kind}, {size:,} keys", target_text, cells["CRegistry"], target[1]))
                rows.append([
                    f"{op_label}, {kind}", f"{size:,}",
                    *(fmt_cell(cells[i]) for i in TABLE_IMPLS),
                    fmt_ratio(cells["Dictionary<Key>"], ours),
                    fmt_ratio(cells["Dictionary<ObjectIdentifier>"], ours),
                    target_text, met_text,
                ])
                for impl in TABLE_IMPLS:
                    if cells[impl]:
                        csv_rows.append(csv_row("hash-tables", scenario, impl, cells[impl], op=op, kind=kind, size=size))
    headers = ["operation", "keys", *TABLE_IMPLS, "Dict<Key> ÷ CReg", "Dict<OID> ÷ CReg", "target (CRegistry)", ""]
    return headers, rows, csv_rows, checks


def resolver_rows(summary, base_label=None):
    """The resolvers table; with `base_label`, a column for the base commit (BASE_IMPL) after ours."""
    impls = RESOLVER_IMPLS[:1] + [BASE_IMPL] + RESOLVER_IMPLS[1:] if base_label else RESOLVER_IMPLS
    names = {BASE_IMPL: base_label}
    rows, csv_rows, checks = [], [], []
    for scenario, label in RESOLVER_SCENARIOS:
        cells = {impl: summary.get(("Resolvers", scenario, impl)) for impl in impls}
        if not any(cells.values()):
            continue
        ours, floor = cells["Resolver"], cells["floor"]
        note = "†" if scenario == "two-threads" else ""
        target = resolver_target(scenario, cells, summary)
        target_text, met_text = ("", "")
        if target:
            target_text, met_text = target[0], mark(target[1])
            checks.append((f"Resolver {label}", target_text, ours, target[1]))
        over_floor = "—"
        if ours and floor:
            over = ours["median"] - floor["median"]
            over_floor = ("+" if over >= 0 else "−") + fmt_ns(abs(over))
        ref = REFERENCE.get(scenario)
        rows.append([
            label,
            *(fmt_cell(cells[i], note if cells[i] else "") for i in impls),
            *([fmt_ratio(cells[BASE_IMPL], ours, digits=2)] if base_label else []),
            fmt_ratio(cells["Swinject"], ours),
            fmt_ratio(cells["baseline"], ours),
            over_floor,
            target_text, met_text,
            f"{ref[0]:,}" if ref else "—",
            f"{ref[1]:,}" if ref else "—",
        ])
        for impl in impls:
            if cells[impl]:
                csv_rows.append(csv_row("resolvers", scenario, names.get(impl, impl), cells[impl]))
    headers = ["scenario", *(names.get(i, i) for i in impls),
               *([f"{base_label} ÷ ours"] if base_label else []), "Swinject ÷ ours", "baseline ÷ ours", "ours − floor",
               "target (Resolver)", "", "1.5.1 ref", "Swinject ref"]
    return headers, rows, csv_rows, checks


CSV_FIELDS = ["family", "scenario", "op", "kind", "size", "implementation", "median_ns_per_op", "p25_ns",
              "p75_ns", "mallocs_per_op", "samples", "round_medians_ns"]


def csv_row(family, scenario, impl, cell, op="", kind="", size=""):
    return {
        "family": family, "scenario": scenario, "op": op, "kind": kind, "size": size,
        "implementation": impl,
        "median_ns_per_op": f"{cell['median']:.3f}",
        "p25_ns": f"{cell['p25']:.3f}", "p75_ns": f"{cell['p75']:.3f}",
        "mallocs_per_op": f"{cell['mallocs']:.4f}",
        "samples": cell["samples"],
        "round_medians_ns": " ".join(f"{v:.3f}" for v in cell["round_medians"].values()),
    }


def write_csv(path, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        writer.writeheader()
        writer.writerows(rows)


def drift_note(summary):
    """How far apart the rounds of one benchmark landed: the noise the medians hide."""
    spreads = []
    for (target, scenario, impl), cell in summary.items():
        medians = list(cell["round_medians"].values())
        if len(medians) >= 2 and cell["median"] > 0:
            spreads.append(((max(medians) - min(medians)) / cell["median"], f"{target} {scenario} {impl}"))
    if not spreads:
        return "single round: no round-to-round spread to report"
    spreads.sort()
    typical = statistics.median(s for s, _ in spreads)
    worst = spreads[-1]
    return (f"round-to-round spread of the medians: typically {typical * 100:.0f}%, "
            f"worst {worst[0] * 100:.0f}% ({worst[1]})")


# ---------------------------------------------------------------------------
# Header, plot
# ---------------------------------------------------------------------------

def machine_header(load_before, load_after, run_time):
    cpu = "?"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        commit = subprocess.run(["git", "-C", here, "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", here, "status", "--porcelain", "--", "../.."], capture_output=True,
                               text=True).stdout.strip()
        if dirty:
            commit += " + uncommitted changes"
    except (OSError, subprocess.CalledProcessError):
        commit = "?"
    lines = [
        f"- run finished: {run_time.strftime('%Y-%m-%d %H:%M')}; library at commit {commit}",
        f"- machine: {platform.node()}, {cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}",
        f"- load average (1/5/15 min): before {load_before or '?'}, after {load_after or '?'}"
        + ("" if load_before or load_after else " (report made apart from the run: bench.py records them)"),
    ]
    return "\n".join(lines)


def ensure_matplotlib():
    try:
        import matplotlib  # noqa: F401
        return True, ""
    except ImportError:
        pass
    print("==> matplotlib is missing: pip install --quiet matplotlib (for lookup.png only)", flush=True)
    result = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "matplotlib"],
                            capture_output=True, text=True)
    if result.returncode != 0:
        return False, ("could not install matplotlib with pip (" + (result.stderr.strip().splitlines() or ["?"])[-1]
                       + "); the tables are complete, only lookup.png is missing. "
                         "Install it by hand (pip install matplotlib, or apt-get install python3-matplotlib) "
                         "and rerun: python3 Benchmarks/Scripts/report.py Benchmarks/results/raw/Current_run.jmh.json")
    try:
        import matplotlib  # noqa: F401
        return True, ""
    except ImportError as error:
        return False, f"matplotlib installed but cannot be imported ({error}); lookup.png not written"


def plot(summary, path):
    ok, why = ensure_matplotlib()
    if not ok:
        return why
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(12, 5), sharey=True)
    styles = {"CRegistry": "tab:blue", "CRegistry+section": "tab:cyan", "Dictionary<Key>": "tab:red",
              "Dictionary<ObjectIdentifier>": "tab:orange"}
    for ax, op in zip(axes, ["hit", "miss"]):
        for kind, dash in (("unnamed", "-"), ("named", "--")):
            for impl in TABLE_IMPLS:
                xs, ys = [], []
                for size in TABLE_SIZES:
                    cell = summary.get(("HashTables", f"{op}-{kind}-{size}", impl))
                    if cell:
                        xs.append(size)
                        ys.append(cell["median"])
                if xs:
                    ax.plot(xs, ys, dash, marker="o", color=styles[impl], label=f"{impl}, {kind}")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("keys in the table (log scale)")
        ax.set_title(f"{op} lookup: median ns per lookup")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("ns per lookup (log scale)")
    axes[0].legend(fontsize=8)
    fig.suptitle("CRegistry vs Swift Dictionary: lookup time against table size (random order over all keys)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return ""


# ---------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("jmh", nargs="+", help="JMH export file(s) from swift package benchmark --format jmh")
    parser.add_argument("--results", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "results"))
    parser.add_argument("--load-before", default=None, help="/proc/loadavg before the run")
    parser.add_argument("--load-after", default=None, help="/proc/loadavg after the run")
    parser.add_argument("--no-plot", action="store_true")
    parser.add_argument("--base", nargs="+", default=[], metavar="JMH",
                        help="exports of the Resolvers benchmark built against an earlier commit (make bench BASE=)")
    parser.add_argument("--base-label", default="base", help='its column\'s name, e.g. "base f8c391b"')
    args = parser.parse_args()

    summary = load(args.jmh)
    if not summary:
        print("no benchmark results found in " + ", ".join(args.jmh), file=sys.stderr)
        return 1
    base_label = None
    if args.base:
        base_label = args.base_label
        for (target, scenario, impl), cell in load(args.base).items():
            if target == "Resolvers" and impl == "Resolver":
                summary[(target, scenario, BASE_IMPL)] = cell
    os.makedirs(args.results, exist_ok=True)

    run_time = datetime.datetime.fromtimestamp(max(os.path.getmtime(p) for p in args.jmh))
    header = machine_header(args.load_before, args.load_after, run_time)
    if base_label:
        header += (f"\n- \"{base_label}\": the same Resolvers benchmark built against the library at that commit; "
                   "the harness ran once per round for each build, alternating which went first")
    t_headers, t_rows, t_csv, t_checks = hash_table_rows(summary)
    r_headers, r_rows, r_csv, r_checks = resolver_rows(summary, base_label)
    legend = ("Cells: median ns per operation · mallocs per operation (all rounds' samples pooled; "
              "each sample is 1,000 operations). Ratios: the alternative's median ÷ ours: how many times "
              "faster ours is (below 1× means slower).")

    sections = ["# Benchmark results", "", header, "", legend, ""]
    hash_md = ""
    if t_rows:
        hash_md = "\n".join([
            "## Family 1: hash tables (CRegistry vs Swift Dictionary)", "",
            "CRegistry: lookups through `crg_find` in one read section per 1,000, writes through `_locked` calls "
            "with the mutex taken once per 1,000 operations; CRegistry+section: `crg_get`, a read section per "
            "lookup. Every implementation keeps its keys compactly (8 bytes per unnamed key, 24 per named key) "
            "and hashes each key on every lookup. Dictionaries hold `AnyObject` values (lookups retain and "
            "release), the C table raw pointers. insert: 1,000 new keys into a table of N; remove: 1,000 keys "
            "out of a table of N + 1,000. Lookups walk a pseudo-random order over all keys.", "",
            render(t_headers, t_rows), ""])
        sections.append(hash_md)
    res_md = ""
    if r_rows:
        res_md = "\n".join([
            "## Family 2: resolvers (Resolver vs Swinject 2.10.0 vs the original 1.5.1 design vs floors)", "",
            "floor: the same objects built directly, or a call returning a kept instance; the mutex row is one "
            "recursive pthread_mutex lock+unlock. † two threads: time per operation per thread; mallocs are "
            "counted process-wide, so both threads' allocations are in that row. "
            "\"1.5.1 ref\" and \"Swinject ref\" are the ns/op the issue reports for the original Resolver 1.5.1 "
            "and Swinject on these machines (not measured in this run).", "",
            render(r_headers, r_rows), ""])
        sections.append(res_md)
    checks = t_checks + r_checks
    if checks:
        met = sum(1 for c in checks if c[3])
        lines = [f"## Targets: {met} of {len(checks)} met", ""]
        for what, target, cell, ok in checks:
            lines.append(f"- {'met   ' if ok else 'MISSED'} {what}: {fmt_cell(cell)} (target {target})")
        lines.append("- instructions per singleton resolve (≤ 2× the floor's, the loop around a kept instance): "
                     "see `make bench-instructions`")
        sections.append("\n".join(lines) + "\n")
    sections.append("Noise: " + drift_note(summary) + "\n")

    full = "\n".join(sections)
    print(full)

    with open(os.path.join(args.results, "summary.md"), "w", encoding="utf-8") as f:
        f.write(full)
    if hash_md:
        with open(os.path.join(args.results, "hash-tables.md"), "w", encoding="utf-8") as f:
            f.write("# Hash tables\n\n" + header + "\n\n" + legend + "\n\n" + hash_md)
        write_csv(os.path.join(args.results, "hash-tables.csv"), t_csv)
    if res_md:
        with open(os.path.join(args.results, "resolvers.md"), "w", encoding="utf-8") as f:
            f.write("# Resolvers\n\n" + header + "\n\n" + legend + "\n\n" + res_md)
        write_csv(os.path.join(args.results, "resolvers.csv"), r_csv)

    written = ["summary.md"] + (["hash-tables.md", "hash-tables.csv"] if hash_md else []) + \
              (["resolvers.md", "resolvers.csv"] if res_md else [])
    if t_rows and not args.no_plot:
        why = plot(summary, os.path.join(args.results, "lookup.png"))
        if why:
            print("note: " + why)
        else:
            written.append("lookup.png")
    print("wrote " + ", ".join(os.path.join(os.path.relpath(args.results), w) for w in written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
