#!/usr/bin/env python3
"""What the harness does not print: one run's side-by-side tables with ratio
columns, the targets (ratios to a floor or a peer measured in the same run), the
scaling table and two plots, from its JMH export (`baseline read NAME --format
jmh`). A sample is 1,000 operations, so its microseconds are ns per operation
(a cold container's sample is one container: OPS_PER_SAMPLE).
Benchmarks are "<scenario>:<round><slot>:<implementation>"; rounds are pooled.

    python3 Scripts/report.py results/raw/current.jmh.json [--base results/raw/base.jmh.json
        --base-label "base SHA"] [--load TEXT] [--results results]
"""
import argparse, json, os, platform, statistics, subprocess

TABLE_IMPLS = ["CRegistry", "CRegistry+section", "Dictionary<Key>", "Dictionary<ObjectIdentifier>"]
SIZES = [16, 1_000, 100_000, 1_000_000]
RESOLVER_IMPLS = ["Resolver", "Swinject", "baseline", "floor"]
SCENARIOS = {"singleton": "singleton (.application)", "named": "named singleton", "transient": "transient",
             "transient-1000": "transient, 1,000 others", "default-scope": "default scope, no dependencies", "graph": "graph A(B(C),C)", "argument": "one argument", "typed-argument": "one typed argument (.unique)",
             "lazy-read": "@LazyInjected read", "key-singleton": "singleton through a key", "key-transient": "transient through a key",
             "key-argument": "key with one argument (.unique)", "register": "register", "mutex": "recursive mutex pair",
             "cold-container": "cold container (a new one, 190 services each resolved once)"}
# Operations per sample where it is not 1,000 (a whole new container is one sample).
OPS_PER_SAMPLE = {"cold-container": 1}
# scenario: (measured against: an implementation in the same row, or "ours, <scenario>"; the most ours may be)
TARGETS = {"singleton": ("floor", 2.0), "named": ("ours, singleton", 1.15), "transient": ("floor", 1.3),
           "graph": ("floor", 1.4), "argument": ("ours, transient", 1.5),
           "typed-argument": ("ours, transient", 1.15), "key-singleton": ("ours, singleton", 1.2),
           "key-transient": ("ours, transient", 1.2), "key-argument": ("ours, key-transient", 1.15),
           "register": ("Swinject", 0.5), "cold-container": ("floor", 5.0)}
# At the most threads: the shared singleton's time per op ÷ the floor's at as many threads, at most;
# the others' gain (total at N threads ÷ at 1) ÷ their floor's gain in the same run, at least (1.8×
# where the floor doubles; a busy machine slows both alike). @LazyInjected has none: construction's.
SCALING = {"singleton": 1.25, "transient": 0.9, "graph": 0.9, "lazy-read": 0.9}


def load(path, only=None):
    pooled = {}
    for entry in json.load(open(path, encoding="utf-8")):
        target, name = entry["benchmark"].split(".", 3)[2:]
        scenario, _, impl = name.rsplit(":", 2)
        metrics = entry.get("secondaryMetrics", {})
        if only and impl != only or "Time (wall clock)" not in metrics:
            continue
        cell = pooled.setdefault((target, scenario, impl), {"t": [], "m": []})
        cell["t"] += metrics["Time (wall clock)"]["rawData"][0]
        cell["m"] += metrics.get("Malloc (total)", {}).get("rawData", [[]])[0]
    per = lambda k: OPS_PER_SAMPLE.get(k[1], 1000)
    return {k: {"ns": statistics.median(v["t"]) * 1000 / per(k),
                "mallocs": statistics.median(v["m"]) / per(k) if v["m"] else None}
            for k, v in pooled.items()}


def ns(cell):
    value = cell["ns"] if cell else 0
    text = f"{value:.2f}" if value < 10 else f"{value:.1f}" if value < 100 else f"{value:,.0f}"
    return text + (f" · {cell['mallocs']:g}" if cell["mallocs"] is not None else "") if cell else "—"


def ratio(a, b, digits=1):
    return f"{a['ns'] / b['ns']:.{digits}f}×" if a and b else "—"


def table(headers, rows):
    widths = [max(len(str(x)) for x in column) for column in zip(headers, *rows)]
    line = lambda cells: "| " + " | ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)
                                           for i, (c, w) in enumerate(zip(cells, widths))) + " |"
    rule = "|" + "|".join(":" + "-" * (w + 1) if i == 0 else "-" * (w + 1) + ":" for i, w in enumerate(widths)) + "|"
    return "\n".join([line(headers), rule] + [line(r) for r in rows])


def verdict(checks, what, text, ok):
    checks.append(f"- {'met   ' if ok else 'MISSED'} {what}: {text}")
    return f"{text} {'met' if ok else 'MISSED'}"


def hash_tables(cells, checks):
    rows = []
    for kind in ["unnamed", "named"]:
        for op in ["hit", "miss", "insert", "remove"]:
            for size in SIZES:
                row = {i: cells.get(("HashTables", f"{op}-{kind}-{size}", i)) for i in TABLE_IMPLS}
                if not any(row.values()):
                    continue
                ours, target = row["CRegistry"], ""
                if op == "hit" and size in (1_000, 1_000_000) and ours and row["Dictionary<Key>"]:
                    least, speedup = 3.0 if size == 1_000 else 1.5, row["Dictionary<Key>"]["ns"] / ours["ns"]
                    target = verdict(checks, f"CRegistry hit, {kind}, {size:,} keys",
                                     f"≥ {least:g}× Dictionary<Key> (is {speedup:.1f}×)", speedup >= least)
                rows.append([f"{op}, {kind}", f"{size:,}", *(ns(row[i]) for i in TABLE_IMPLS),
                             ratio(row["Dictionary<Key>"], ours), ratio(row["Dictionary<ObjectIdentifier>"], ours), target])
    return table(["operation", "keys", *TABLE_IMPLS, "Dict<Key> ÷ CReg", "Dict<OID> ÷ CReg", "target"], rows) if rows else ""


def resolvers(cells, checks, base_label):
    impls = ["Resolver"] + (["base"] if base_label else []) + RESOLVER_IMPLS[1:]
    rows = []
    for scenario, label in SCENARIOS.items():
        row = {i: cells.get(("Resolvers", scenario, i)) for i in impls}
        ours, target = row["Resolver"], ""
        if not ours:
            continue
        if scenario in TARGETS:
            against, most = TARGETS[scenario]
            other = row.get(against) or cells.get(("Resolvers", against.removeprefix("ours, "), "Resolver"))
            if other:
                value = ours["ns"] / other["ns"]
                ok = value <= most and (scenario != "singleton" or ours["mallocs"] == 0)
                target = verdict(checks, f"Resolver {label}", f"≤ {most:g}× {against} (is {value:.2f}×)"
                                 + (", 0 mallocs" if scenario == "singleton" else ""), ok)
        rows.append([label, *(ns(row[i]) for i in impls), *([ratio(row["base"], ours, 2)] if base_label else []),
                     ratio(row["Swinject"], ours), ratio(row["baseline"], ours), ratio(ours, row["floor"], 2), target])
    names = [base_label if i == "base" else i for i in impls]
    return table(["scenario", *names, *([f"{base_label} ÷ ours"] if base_label else []), "Swinject ÷ ours",
                  "baseline ÷ ours", "ours ÷ floor", "target"], rows) if rows else ""


def scaling(cells, checks, base_label):
    """Total throughput (million operations per second, all threads) at each thread count."""
    threads = sorted({1} | {int(s.rsplit(":", 1)[1]) for _, s, _ in cells if "/threads:" in s})
    runs = {}  # (scenario, impl) -> {threads: cell}
    for (target, scenario, impl), cell in cells.items():
        name, _, count = scenario.partition("/threads:")
        if target == "Resolvers" and any(("Resolvers", f"{name}/threads:{t}", impl) in cells for t in threads[1:]):
            runs.setdefault((name, base_label if impl == "base" else impl), {})[int(count or 1)] = cell
    top, rows = threads[-1], []
    gain = lambda r: r[1]["ns"] / r[top]["ns"] * top if r and top in r and 1 in r else None  # total at top ÷ at 1
    for scenario in SCENARIOS:
        floor = runs.get((scenario, "floor")) or runs.get(("transient", "floor"))
        for impl in ["Resolver", base_label] + RESOLVER_IMPLS[1:]:
            run = runs.get((scenario, impl))
            if not run or 1 not in run:
                continue
            target = ""
            if impl == "Resolver" and scenario in SCALING and gain(run) and gain(floor):
                bound = SCALING[scenario]
                if scenario == "singleton":
                    value, text = run[top]["ns"] / floor[top]["ns"], f"≤ {bound:g}× the floor's time"
                else:
                    value, text = gain(run) / gain(floor), f"gain ≥ {bound:g}× its floor's ({gain(floor):.2f}×)"
                ok = value <= bound if scenario == "singleton" else value >= bound
                target = verdict(checks, f"{SCENARIOS[scenario]} at {top} threads", f"{text} (is {value:.2f}×)", ok)
            rows.append([SCENARIOS[scenario], impl, *(f"{t * 1000 / run[t]['ns']:.1f}" if t in run else "—" for t in threads),
                         f"{gain(run):.2f}×" if gain(run) else "—", target])
    return table(["scenario", "implementation", *(f"T={t}" for t in threads), f"T={top} ÷ T=1", "target"],
                 rows) if rows else "", runs, threads


def plots(cells, runs, threads, results):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "matplotlib is missing (make bench installs python3-matplotlib): no plots"
    drawn = []
    if any(target == "HashTables" for target, _, _ in cells):
        drawn.append(lookup_plot(plt, cells, results))
    if runs:
        drawn.append(scaling_plot(plt, runs, threads, results))
    return "plots: " + (", ".join(drawn) or "none (no rows for them ran)")


def lookup_plot(plt, cells, results):
    fig, axes = plt.subplots(1, 2, figsize=(12, 5), sharey=True)
    for ax, op in zip(axes, ["hit", "miss"]):
        for kind, dash in (("unnamed", "-"), ("named", "--")):
            for impl in TABLE_IMPLS:
                points = [(s, cells[k]["ns"]) for s in SIZES if (k := ("HashTables", f"{op}-{kind}-{s}", impl)) in cells]
                if points:
                    ax.plot(*zip(*points), dash, marker="o", label=f"{impl}, {kind}")
        ax.set(xscale="log", yscale="log", xlabel="keys in the table", title=f"{op} lookup: median ns per lookup")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(results, "lookup.png"), dpi=110)
    return "lookup.png"


def scaling_plot(plt, runs, threads, results):
    scenarios = [scenario for scenario in SCENARIOS if any(name == scenario for name, _ in runs)]
    impls = list(dict.fromkeys(["Resolver"] + [impl for _, impl in runs if impl not in RESOLVER_IMPLS] + RESOLVER_IMPLS[1:]))
    fig, axes = plt.subplots(1, len(scenarios), figsize=(3.2 * len(scenarios), 4.5), sharey=True, squeeze=False)
    for ax, scenario in zip(axes[0], scenarios):
        for color, impl in enumerate(impls):
            if run := runs.get((scenario, impl)):
                ax.plot(sorted(run), [t * 1000 / run[t]["ns"] for t in sorted(run)], marker="o", label=impl, color=f"C{color}")
        ax.set(yscale="log", xticks=threads, xlabel="threads", title=SCENARIOS[scenario])
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    axes[0][0].set_ylabel("million operations per second, all threads")
    fig.tight_layout()
    fig.savefig(os.path.join(results, "scaling.png"), dpi=110)
    return "scaling.png"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("jmh")
    parser.add_argument("--base")
    parser.add_argument("--base-label", default="base")
    parser.add_argument("--load", default="?")
    parser.add_argument("--results", default="results")
    args = parser.parse_args()
    cells = load(args.jmh)
    base_label = args.base_label if args.base else None
    if args.base:
        cells.update({(t, s, "base"): c for (t, s, _), c in load(args.base, only="Resolver").items()})
    git = lambda *a: subprocess.run(["git", *a], capture_output=True, text=True).stdout.strip()
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?") \
        if os.path.exists("/proc/cpuinfo") else platform.processor()
    checks = []
    hashes = hash_tables(cells, checks)
    resolver_table = resolvers(cells, checks, base_label)
    scaling_table, runs, threads = scaling(cells, checks, base_label)
    text = "\n".join([
        "# Benchmark results", "",
        f"- library at {git('rev-parse', '--short', 'HEAD')}{' + uncommitted changes' if git('status', '--porcelain') else ''}"
        f"; {platform.node()}, {cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}",
        f"- load average (1/5/15 min) before / after: {args.load}", "",
        "Cells: median ns per operation · mallocs per operation; ratios are the other's time ÷ ours "
        "(how many times faster ours is), except \"ours ÷ floor\".", "",
        *(["## Hash tables (CRegistry against Swift's Dictionary)", "", hashes, ""] if hashes else []),
        *(["## Resolvers (this library, Swinject 2.10.0, the original 1.5.1 design, no container)", "",
           "floor: the same objects built directly, or a kept instance retained and released.", "",
           resolver_table, ""] if resolver_table else []),
        *(["## Scaling: total throughput, million operations per second, all threads", "",
           "Every thread resolves from the same container at once; a sample ends when each has done its 1,000.", "",
           scaling_table, ""] if scaling_table else []),
        f"## Targets: {sum('met   ' in c for c in checks)} of {len(checks)} met", "", *checks, ""])
    print(text)
    os.makedirs(args.results, exist_ok=True)
    open(os.path.join(args.results, "summary.md"), "w", encoding="utf-8").write(text)
    print(plots(cells, runs, threads, args.results), f"and summary.md in {args.results}/; "
          f"the harness's own tables: harness.md{', compare.md' if args.base else ''}")


if __name__ == "__main__":
    main()
