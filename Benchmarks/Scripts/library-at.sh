#!/usr/bin/env bash
# The one way the benchmarks get the library at a base commit (make bench,
# bench-scaling-table, bench-scaling-runs, bench-verify-bursts, typecheck.py,
# overloads.py): the repository's files at COMMIT, by `git archive`, in DIR
# (emptied first; no worktree to register or remove), and the build plans of
# DIR's parent (the base's scratch directory) dropped when the commit's files
# differ (fresh-plans.sh). Prints the commit's short hash, for the callers' labels.
#
#   Scripts/library-at.sh COMMIT DIR
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: library-at.sh COMMIT DIR" >&2; exit 2; }
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
sha=$(git -C "$root" rev-parse --short "$1^{commit}")
rm -rf "$2"
mkdir -p "$2"
git -C "$root" archive "$sha" | tar -x -C "$2"
# DIR's parent is the scratch directory that builds it: another commit may have other files.
"$(dirname "$0")/fresh-plans.sh" "$2" "$(dirname "$2")"
echo "$sha"
