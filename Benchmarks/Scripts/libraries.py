"""The libraries a build-time script compares: this checkout, the library at a
base commit (written into a tree of its own by library-at.sh), and folders
given with --against (a release of the original, say)."""

import os, subprocess

ROOT = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))
LIBRARY_AT = os.path.join(ROOT, "Benchmarks", "Scripts", "library-at.sh")


def compared_libraries(work, base, against):
    """[(label, path)] with this checkout first, and the base tree to remove
    afterwards (None without a base)."""
    libraries = [("this checkout", ROOT)]
    tree = None
    if base:
        sha = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", f"{base}^{{commit}}"],
                             capture_output=True, text=True, check=True).stdout.strip()
        tree = os.path.join(work, f"base-library-{sha}")
        subprocess.run([LIBRARY_AT, base, tree], capture_output=True, check=True)
        libraries.append((f"base {sha}", tree))
    for path in against:
        libraries.append((f"at {os.path.basename(os.path.normpath(path))}", os.path.abspath(path)))
    return libraries, tree


def add_library_arguments(parser):
    """The options every such script takes: --base, --against (repeatable) and --runs."""
    parser.add_argument("--base", default=os.environ.get("BASE") or None, help="also this commit's library")
    parser.add_argument("--against", action="append", default=[], metavar="PATH",
                        help="also the library package at PATH (e.g. a checkout of Resolver 1.5.1)")
    parser.add_argument("--runs", type=int, default=3)


def loadavg():
    """The load averages (1, 5, 15 minutes), or "?" where /proc has none."""
    return " ".join(open("/proc/loadavg").read().split()[:3]) if os.path.exists("/proc/loadavg") else "?"
