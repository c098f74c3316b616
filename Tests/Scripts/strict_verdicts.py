#!/usr/bin/env python3
"""make test-strict-verdicts: a strict test's verdict must not depend on the order tests run in.

    strict_verdicts.py [--suite ResolverTests.StrictVerdicts] [--reversed ResolverTests.StrictVerdictsReversed]
                       [--swift swift] [-- EXTRA SWIFT TEST ARGUMENTS]

The strict tests of SUITE (Tests/ResolverTests/StrictVerdictTests.swift) use
services that the app's `registerAllServices` registers, which runs lazily,
in whichever test's task resolves first. This runs, each time in a process
of its own and from the test binary already built (`swift test --skip-build`):

- SUITE in full (a serialized suite: its tests in source order, the first
  one running the app's setup);
- each test of SUITE alone (`--filter`: every test runs the setup itself);
- REVERSED: the same tests in the opposite order.

It prints each test's verdict (passed or failed) in the three runs, and exits
1 unless every test was found and passed or failed alike in all of them.
"""

import argparse
import re
import subprocess
import sys

VERDICT = re.compile(r"Test (\w+)\(\) (passed|failed)")


def verdicts(swift, pattern, extra):
    """Each test's verdict in one `swift test` process filtered by `pattern`."""
    command = [swift, "test", "--skip-build", "--filter", pattern] + extra
    out = subprocess.run(command, capture_output=True, text=True)
    found = {}
    for line in out.stdout.splitlines() + out.stderr.splitlines():
        match = VERDICT.search(line)
        if match and " Suite " not in line:
            found[match.group(1)] = match.group(2)
    if not found:
        sys.exit(f"no test verdicts from: {' '.join(command)}\n{out.stdout[-3000:]}{out.stderr[-3000:]}")
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--suite", default="ResolverTests.StrictVerdicts")
    parser.add_argument("--reversed", default="ResolverTests.StrictVerdictsReversed")
    parser.add_argument("--swift", default="swift")
    parser.add_argument("extra", nargs="*", help="more arguments for swift test (after --)")
    args = parser.parse_args()

    suite = re.escape(args.suite.split(".")[-1])
    full = verdicts(args.swift, f"{suite}/", args.extra)
    alone = {name: verdicts(args.swift, f"{suite}/{name}\\(", args.extra).get(name, "not run") for name in full}
    reverse = verdicts(args.swift, f"{re.escape(args.reversed.split('.')[-1])}/", args.extra)

    width = max(len(name) for name in full)
    print(f"Strict tests of {args.suite}: verdicts in full (source order), alone, and reversed ({args.reversed})")
    print()
    print(f"| {'test'.ljust(width)} | in full | alone  | reversed |")
    print(f"|{'-' * (width + 2)}|---------|--------|----------|")
    differ = []
    for name in full:
        row = (full[name], alone[name], reverse.get(name, "not run"))
        if len(set(row)) != 1:
            differ.append(name)
        print(f"| {name.ljust(width)} | {row[0]:<7} | {row[1]:<6} | {row[2]:<8} |")
    missing = sorted(set(reverse) - set(full))
    print()
    if differ or missing:
        print(f"verdicts differ: {', '.join(differ + missing)}")
        sys.exit(1)
    print(f"identical: {len(full)} tests, {sum(v == 'passed' for v in full.values())} passed in every run")


if __name__ == "__main__":
    main()
