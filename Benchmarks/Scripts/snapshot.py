"""The library as it was at an earlier commit, for side-by-side runs against
this checkout (`make bench BASE=…`, `make bench-scaling BASE=…`).

snapshot_library(commit, directory) extracts the library's Package.swift and
Sources/ at `commit` (`git archive`) into `directory` and returns the short sha.
Only those two entries are replaced, so anything else kept in `directory` (a
benchmark package and its .build, say) survives a change of commit; when
`directory` already holds that commit, nothing is touched, so SwiftPM sees no
change and rebuilds nothing.
"""
import os
import shutil
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.normpath(os.path.join(HERE, "..", ".."))
LIBRARY_ENTRIES = ("Package.swift", "Sources")
STAMP = ".snapshot-commit"


def short_sha(commit):
    """The short sha of `commit`; exits with git's message if it names no commit."""
    result = subprocess.run(["git", "rev-parse", "--short", "--verify", "--end-of-options", commit + "^{commit}"],
                            cwd=REPOSITORY, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"error: {commit!r} is not a commit of {REPOSITORY}: {result.stderr.strip()}")
    return result.stdout.strip()


def snapshot_library(commit, directory):
    """Package.swift and Sources/ of the library at `commit`, in `directory`; returns the short sha."""
    sha = short_sha(commit)
    stamp = os.path.join(directory, STAMP)
    current = open(stamp, encoding="utf-8").read().strip() if os.path.exists(stamp) else None
    if current == sha:
        return sha
    os.makedirs(directory, exist_ok=True)
    if os.path.exists(stamp):
        os.remove(stamp)  # until the new snapshot is complete
    for entry in LIBRARY_ENTRIES:
        path = os.path.join(directory, entry)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        elif os.path.lexists(path):
            os.remove(path)
    archive = subprocess.run(["git", "archive", sha, *LIBRARY_ENTRIES], cwd=REPOSITORY, capture_output=True,
                             check=True).stdout
    subprocess.run(["tar", "-x", "-C", directory], input=archive, check=True)
    with open(stamp, "w", encoding="utf-8") as f:
        f.write(sha + "\n")
    return sha
