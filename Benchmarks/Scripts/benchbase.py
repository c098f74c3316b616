"""The benchmark package built against an earlier commit of the library, for
`make bench BASE=<commit>` (Scripts/bench.py --base).

Layout, under Benchmarks/.build-bench-base/ (git-ignored):

    Package.swift, Sources/    the library at the base commit (Scripts/snapshot.py)
    Benchmarks/                this checkout's benchmark package, mirrored; its
                               dependency `path: ".."` is therefore the library
                               snapshot above, with no rewriting

The mirror's Package.swift is this package's manifest with a few lines appended
that keep only the `Resolvers` benchmark and the targets it needs (the resolver
family): the hash-table targets, and any product of the library that only they
use, cannot break the base build, whatever the library had at that commit.
Files are copied only when they differ, so SwiftPM rebuilds only what changed.
"""
import filecmp
import os
import shutil

from snapshot import snapshot_library

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.normpath(os.path.join(HERE, ".."))
BASE_ROOT = os.path.join(PACKAGE, ".build-bench-base")
BASE_PACKAGE = os.path.join(BASE_ROOT, "Benchmarks")
BASE_PRODUCT = "Resolvers"
# Not mirrored: build output, results and the manifest (written below).
SKIP = {"results", "Package.swift"}

TRIM = """

// ---------------------------------------------------------------------------
// Appended by Scripts/benchbase.py for `make bench BASE=…`: only the {product}
// benchmark and the targets it needs, so that the library at the base commit
// must provide only the products those use.
do {{
    let byName = Dictionary(uniqueKeysWithValues: package.targets.map {{ ($0.name, $0) }})
    var needed: Set<String> = []
    var pending = ["{product}"]
    while let name = pending.popLast() {{
        guard needed.insert(name).inserted, let target = byName[name] else {{ continue }}
        for dependency in target.dependencies {{
            switch dependency {{
            case .targetItem(let name, _), .byNameItem(let name, _): pending.append(name)
            default: break
            }}
        }}
        for plugin in target.plugins ?? [] {{
            if case .plugin(let name, nil) = plugin {{ pending.append(name) }}
        }}
    }}
    package.targets.removeAll {{ !needed.contains($0.name) }}
}}
""".format(product=BASE_PRODUCT)


def _mirror(source, destination):
    """Makes `destination` a copy of `source` (files, symlinks as links), copying only what differs."""
    if os.path.islink(source):
        target = os.readlink(source)
        if not (os.path.islink(destination) and os.readlink(destination) == target):
            _remove(destination)
            os.symlink(target, destination)
        return
    if os.path.isfile(source):
        if os.path.islink(destination) or os.path.isdir(destination):
            _remove(destination)
        if not (os.path.isfile(destination) and filecmp.cmp(source, destination, shallow=False)):
            shutil.copy2(source, destination)
        return
    if os.path.islink(destination) or (os.path.lexists(destination) and not os.path.isdir(destination)):
        _remove(destination)
    os.makedirs(destination, exist_ok=True)
    entries = set(os.listdir(source))
    for stale in set(os.listdir(destination)) - entries:
        _remove(os.path.join(destination, stale))
    for entry in entries:
        _mirror(os.path.join(source, entry), os.path.join(destination, entry))


def _remove(path):
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    elif os.path.lexists(path):
        os.remove(path)


def _write_if_changed(path, text):
    if os.path.exists(path) and open(path, encoding="utf-8").read() == text:
        return
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def prepare(commit):
    """Snapshots the library at `commit` and mirrors this benchmark package beside it.

    Returns (base package directory, short sha). The package's own .build is
    kept between runs: changing the commit rebuilds the library and the
    benchmark targets, not the harness or Swinject."""
    sha = snapshot_library(commit, BASE_ROOT)
    os.makedirs(BASE_PACKAGE, exist_ok=True)
    for entry in sorted(os.listdir(PACKAGE)):
        if entry.startswith(".") or entry in SKIP:
            continue
        _mirror(os.path.join(PACKAGE, entry), os.path.join(BASE_PACKAGE, entry))
    with open(os.path.join(PACKAGE, "Package.swift"), encoding="utf-8") as f:
        manifest = f.read()
    _write_if_changed(os.path.join(BASE_PACKAGE, "Package.swift"), manifest + TRIM)
    return BASE_PACKAGE, sha
