#!/usr/bin/env bash
# without-xxhash-header.sh COMMAND...: runs COMMAND where the xxHash headers
# are missing, as on a machine without libxxhash-dev (make test-first-build).
#
# How, and why it is safe for the system's own files:
# - the headers are hidden in a private mount namespace (unshare --mount
#   --propagation private): no other process, and nothing after it ends,
#   sees a change;
# - what is mounted is a copy (cp -a: new files, no hard links) of
#   /usr/include, without xxhash.h, xxh3.h and xxh_x86dispatch.h, bound over
#   /usr/include; likewise /usr/local/include when it holds one of them
#   (clang searches both). Nothing real is bound anywhere else, and nothing
#   real is removed;
# - the copies are unmounted before the namespace ends, and removed only
#   after it has ended, with rm --one-file-system, once findmnt shows no
#   mount at or under their folder.
# As root (CI), unshare needs nothing more; as another user, it maps that
# user to root in a user namespace of its own (--map-root-user), where the
# kernel allows it.
#
# The environment's CLANG (default: clang) must not find <xxhash.h> in the
# namespace; if it does, the script stops before COMMAND runs.
set -euo pipefail

HEADERS=(xxhash.h xxh3.h xxh_x86dispatch.h)
INCLUDE_DIRS=(/usr/include /usr/local/include)

if [ "${1-}" = --inside ]; then
    # In the namespace: $2 is the folder of copies, the rest is COMMAND.
    copies=$2
    shift 2
    mounted=()
    unmount() {
        local dir
        for dir in "${mounted[@]}"; do umount "$dir"; done
    }
    trap unmount EXIT
    for dir in "${INCLUDE_DIRS[@]}"; do
        if [ -d "$copies$dir" ]; then
            mount --bind "$copies$dir" "$dir"
            mounted+=("$dir")
        fi
    done
    if echo '#include <xxhash.h>' | "${CLANG:-clang}" -E -x c - >/dev/null 2>&1; then
        echo "$0: ${CLANG:-clang} still finds xxhash.h with the headers hidden: the test would prove nothing" >&2
        exit 2
    fi
    echo "==> (xxhash.h hidden: ${CLANG:-clang} finds no <xxhash.h>)"
    status=0
    "$@" || status=$?
    exit "$status"
fi

if [ $# -eq 0 ]; then
    echo "usage: $0 COMMAND..." >&2
    exit 2
fi

copies=$(mktemp -d)
remove_copies() {
    # Mounts made in the namespace ended with it; check anyway that none is
    # at or under the copies' folder before removing it.
    if findmnt -R "$copies" >/dev/null 2>&1 \
        || findmnt -rn -o TARGET | awk -v dir="$copies" 'index($0, dir) == 1 { found = 1 } END { exit !found }'; then
        echo "$0: a mount is still at or under $copies: not removing it" >&2
        return 1
    fi
    rm -rf --one-file-system "$copies"
}
trap remove_copies EXIT

for dir in "${INCLUDE_DIRS[@]}"; do
    has_header=false
    for header in "${HEADERS[@]}"; do
        [ -e "$dir/$header" ] && has_header=true
    done
    if $has_header; then
        mkdir -p "$copies$(dirname "$dir")"
        cp -a "$dir" "$copies$dir"
        for header in "${HEADERS[@]}"; do rm -f "$copies$dir/$header"; done
    fi
done

namespace=(unshare --mount --propagation private)
[ "$(id -u)" = 0 ] || namespace+=(--map-root-user)
status=0
"${namespace[@]}" bash "$0" --inside "$copies" "$@" || status=$?
exit "$status"
