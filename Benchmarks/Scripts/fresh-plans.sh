#!/usr/bin/env bash
# SwiftPM plans the sources of a package the benchmarks take by path (the
# library) once per scratch directory, and does not notice a file added or
# removed there: the next build then fails on a missing input or an unknown
# name. This drops a scratch directory's build plans whenever the library's
# list of source files differs from the one they were made for, so the next
# build plans again (its object files stay). Called by library-at.sh for a
# base commit's tree, and by the Makefile before building this checkout in
# the benchmark package, the test probes (Tests/APIProbe, ...) and the server
# example, which all take the library by path.
#
#   Scripts/fresh-plans.sh LIBRARY SCRATCH...
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: fresh-plans.sh LIBRARY SCRATCH..." >&2; exit 2; }
library=$1; shift
files=$(cd "$library" && find Sources -type f | LC_ALL=C sort | cksum)
for scratch in "$@"; do
    mkdir -p "$scratch"
    if [ "$(cat "$scratch/.library-files" 2>/dev/null || true)" != "$files" ]; then
        rm -f "$scratch"/{release,debug}.yaml "$scratch"/{release,debug}/description.json
        echo "$files" > "$scratch/.library-files"
    fi
done
