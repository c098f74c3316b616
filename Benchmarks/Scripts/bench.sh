#!/usr/bin/env bash
# `make bench`: every benchmark through the ordo-one harness, stored as its
# baseline "current"; with BASE=<commit>, first the Resolvers benchmarks built
# against the library at that commit (Scripts/library-at.sh; only "Resolver", by the
# harness's filter), stored as "base". Then the harness's exports and Markdown,
# and the side-by-side tables, targets and plots (report.py), in results/.
#
#   BASE=<commit> BENCH_SCENARIOS=<regex> Scripts/bench.sh [harness arguments, e.g. --target Resolvers]
# BENCH_SCENARIOS selects scenarios by name (default all; make bench-scaling-table: those
# with thread-count variants). BENCH_ROUNDS, BENCH_MAX_MS: Sources/BenchSupport/Interleaving.swift.
set -euo pipefail
cd "$(dirname "$0")/.."
harness() { swift package ${scratch:+--scratch-path "$scratch"} --allow-writing-to-package-directory "$@"; }
loadavg() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime | sed 's/.*load averages*: //'; }
scenarios="${BENCH_SCENARIOS:-.*}"
python=python3  # one that has matplotlib, for the plots (make bench installs Debian's)
$python -c 'import matplotlib' 2>/dev/null || ! /usr/bin/python3 -c 'import matplotlib' 2>/dev/null || python=/usr/bin/python3
mkdir -p results/raw
# A run's figures only: the last run's exports and the harness's stored baselines go.
rm -rf results/raw/*.jmh.json results/*.md results/*.png .benchmarkBaselines/*/current .benchmarkBaselines/*/base
before=$(loadavg)
echo "==> load average before: $before; ${BENCH_ROUNDS:-3} interleaved rounds of ~${BENCH_MAX_MS:-150} ms per benchmark"
base_args=()
if [ -n "${BASE:-}" ]; then
    tree="$PWD/.build-base/library"
    sha=$(Scripts/library-at.sh "$BASE" "$tree")
    echo "==> the Resolvers benchmarks against the library at $sha (Benchmarks/.build-base)"
    RESOLVER_LIBRARY="$tree" scratch=.build-base harness benchmark baseline update base \
        --target Resolvers --filter "($scenarios):[0-9]+[a-z]:Resolver" "$@"
    harness benchmark baseline read base --format jmh --path results/raw >/dev/null
    base_args=(--base results/raw/base.jmh.json --base-label "base $sha")
fi
echo "==> this checkout (the first run builds the package in release: a few minutes)"
harness benchmark baseline update current --filter "($scenarios):.*" "$@"
harness benchmark baseline read current --format jmh --path results/raw >/dev/null
harness benchmark baseline read current --format markdown --no-progress > results/harness.md
check=0
if [ -n "${BASE:-}" ]; then
    harness benchmark baseline compare current base --format markdown --no-progress > results/compare.md || true
    # The harness's thresholds (Sources/BenchSupport/Interleaving.swift); it exits non-zero when
    # anything deviates, better or worse, and says which.
    harness benchmark baseline check base current --no-progress > results/check.txt 2>&1 || check=$?
fi
$python Scripts/report.py results/raw/current.jmh.json "${base_args[@]}" \
    --load "$before / $(loadavg)" --results results
if [ -n "${BASE:-}" ]; then
    if [ "$check" != 0 ] && ! grep -q "is BETTER than" results/check.txt; then
        grep -A12 "Threshold deviations" results/check.txt >&2 || true
        echo "error: the harness's baseline check against $sha failed (results/check.txt)" >&2; exit 1
    fi
    echo "==> baseline check: no benchmark makes more mallocs than at $sha (results/check.txt)"
fi
