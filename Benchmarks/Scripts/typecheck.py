#!/usr/bin/env python3
"""`make bench-typecheck`: how long the compiler takes to type-check an app's
registration code (issue 28). It writes a small client package that depends on
the library by path, with two files of generated registrations, each one
function holding them:

  ordinary     200 registrations in the shapes 1.5.1 apps write: no type (inferred),
               `.scope(.application)`, `r in S(a: r.resolve())`, `name:`,
               `_, args in S(args())`, `.implements(P.self)`, `S() as P`
  8 shapes     200 registrations cycling through plain, resolver, args, named,
               `{ @MainActor in S() }`, `{ @MainActor r in … }`, `{ await S() }` and
               `{ r in await S(a: r.resolve()) }`
  keys         200 compile-time-checked keys (issue 38), each a property of
               `ResolverKeys`, in the six shapes of the ordinary file as keys write
               them, and a function holding 200 resolves through them; only for a
               library that has keys

and builds each target with `-debug-time-function-bodies` RUNS times (touching
the file so it recompiles), printing the time the compiler reports for the
file's function bodies (the function holding the registrations; for keys, the
200 getters and the function holding the resolves): every run, and the median. Beside it, the
constraint solver's scope count for the file (`-stats-output-dir`), which is
the same on every run and every machine with one compiler: it shows a change
in the solver's work where the times are too noisy to. With --base
COMMIT it also builds the same files against the library at that commit
(Scripts/library-at.sh), alternating with this checkout run by run. A library without the
concurrency overloads (before the @MainActor and async factories) gets the
8-shape file in the spelling it accepts (so does a checkout of 1.5.1 given
with --against PATH, which builds the same files against that package): the same registrations without
`@MainActor in` and `await` (its async initializers synchronous), as an app
had to write them then.

    python3 Benchmarks/Scripts/typecheck.py [--base COMMIT] [--against PATH] [--runs 3] [--count 200]
    python3 Benchmarks/Scripts/typecheck.py --emit DIR   # write the client package only

Everything it writes goes to Benchmarks/.build-typecheck (git-ignored).
"""
import argparse, glob, json, os, re, shutil, statistics, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from libraries import add_library_arguments, compared_libraries, loadavg  # noqa: E402

ROOT = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))
WORK = os.path.join(ROOT, "Benchmarks", ".build-typecheck")
FILES = {"ordinary": "Ordinary", "8 shapes": "EightShapes", "keys": "Keys"}  # file label: target name
FUNCTION = "registerServices{}()"  # the function holding the registrations, per target


def ordinary(count):
    """The 1.5.1 shapes: (types, registrations)."""
    types, lines = ["final class Dep { init() {} }"], []
    for i in range(count):
        shape = i % 6
        s = f"S{i:03}"
        if shape == 0:
            types.append(f"final class {s} {{ init() {{}} }}")
            lines.append(f"register {{ {s}() }}.scope(.application)")
        elif shape == 1:
            types.append(f"final class {s} {{ init(a: Dep) {{}} }}")
            lines.append(f"register {{ r in {s}(a: r.resolve()) }}")
        elif shape == 2:
            types.append(f"final class {s} {{ init() {{}} }}")
            lines.append(f'register(name: "{s.lower()}") {{ {s}() }}')
        elif shape == 3:
            types.append(f"final class {s} {{ init(_ value: Int) {{}} }}")
            lines.append(f"register {{ _, args in {s}(args()) }}")
        elif shape == 4:
            types.append(f"protocol P{i:03}: AnyObject {{}}\nfinal class {s}: P{i:03} {{ init() {{}} }}")
            lines.append(f"register {{ {s}() }}.implements(P{i:03}.self)")
        else:
            types.append(f"protocol P{i:03}: AnyObject {{}}\nfinal class {s}: P{i:03} {{ init() {{}} }}")
            lines.append(f"register {{ {s}() as P{i:03} }}")
    return types, lines


def eight_shapes(count, concurrency):
    """Plain, resolver, args, named, then each isolated (@MainActor) and async;
    without `concurrency`, the last four as a library without those overloads takes them."""
    types, lines = ["final class Dep { init() {} }"], []
    main_actor = "@MainActor " if concurrency else ""
    is_async, await_ = (" async", "await ") if concurrency else ("", "")
    for i in range(count):
        shape = i % 8
        s = f"S{i:03}"
        if shape in (0, 3):
            types.append(f"final class {s} {{ init() {{}} }}")
            lines.append(f"register {{ {s}() }}.scope(.application)" if shape == 0
                         else f'register(name: "{s.lower()}") {{ {s}() }}')
        elif shape == 1:
            types.append(f"final class {s} {{ init(a: Dep) {{}} }}")
            lines.append(f"register {{ r in {s}(a: r.resolve()) }}")
        elif shape == 2:
            types.append(f"final class {s} {{ init(_ value: Int) {{}} }}")
            lines.append(f"register {{ _, args in {s}(args()) }}")
        elif shape == 4:
            types.append(f"final class {s} {{ init() {{}} }}")
            lines.append(f"register {{ {main_actor}{'in ' if concurrency else ''}{s}() }}")
        elif shape == 5:
            types.append(f"final class {s} {{ init(a: Dep) {{}} }}")
            lines.append(f"register {{ {main_actor}r in {s}(a: r.resolve()) }}")
        elif shape == 6:
            types.append(f"final class {s} {{ init(){is_async} {{}} }}")
            lines.append(f"register {{ {await_}{s}() }}.scope(.application)")
        else:
            types.append(f"final class {s} {{ init(a: Dep){is_async} {{}} }}")
            lines.append(f"register {{ r in {await_}{s}(a: r.resolve()) }}")
    return types, lines


def keys(count):
    """Compile-time-checked keys in the ordinary file's six shapes, as keys write them:
    (types, key declarations, resolves)."""
    types, declarations, resolves = ["final class Dep { init() {} }"], [
        "var dep: ResolverKey<Dep> { ResolverKey { Dep() } }"], []
    for i in range(count):
        shape = i % 6
        s, k = f"S{i:03}", f"k{i:03}"
        if shape == 0:
            types.append(f"final class {s} {{ init() {{}} }}")
            declarations.append(f"var {k}: ResolverKey<{s}> {{ ResolverKey {{ {s}() }}.scope(.application) }}")
            resolves.append(f"_ = resolve(\\.{k})")
        elif shape == 1:
            types.append(f"final class {s} {{ init(a: Dep) {{}} }}")
            declarations.append(f"var {k}: ResolverKey<{s}> {{ ResolverKey {{ r in {s}(a: r.resolve(\\.dep)) }} }}")
            resolves.append(f"let _: {s} = resolve(\\.{k})")
        elif shape == 2:
            types.append(f"final class {s} {{ init() {{}} }}")
            declarations.append(f"var {k}: ResolverKey<{s}> {{ ResolverKey {{ {s}() }} }}")
            resolves.append(f"_ = optional(\\.{k})")
        elif shape == 3:
            types.append(f"final class {s} {{ init(_ value: Int) {{}} }}")
            declarations.append(f"var {k}: ResolverKey<{s}, Int> {{ ResolverKey {{ value in {s}(value) }} }}")
            resolves.append(f"_ = resolve(\\.{k}, arguments: 7)")
        elif shape == 4:
            types.append(f"protocol P{i:03}: AnyObject {{}}\nfinal class {s}: P{i:03} {{ init() {{}} }}")
            declarations.append(f"var {k}: ResolverKey<any P{i:03}> {{ ResolverKey {{ {s}() }}.scope(.cached) }}")
            resolves.append(f"_ = resolve(\\.{k})")
        else:
            types.append(f"protocol P{i:03}: AnyObject {{}}\nfinal class {s}: P{i:03} {{ init() {{}} }}")
            declarations.append(f"var {k}: ResolverKey<any P{i:03}> {{ ResolverKey {{ r in {s}() as any P{i:03} }} }}")
            resolves.append(f"let _: any P{i:03} = resolve(\\.{k})")
    return types, declarations, resolves


def has_keys(library):
    sources = os.path.join(library, "Sources", "Resolver")
    return any("public struct ResolverKey<" in open(os.path.join(dirpath, name), encoding="utf-8").read()
               for dirpath, _, names in os.walk(sources) for name in names if name.endswith(".swift"))


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if not os.path.exists(path) or open(path, encoding="utf-8").read() != text:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


def has_concurrency_overloads(library):
    sources = os.path.join(library, "Sources", "Resolver")
    return any("ResolverFactoryAsync<" in open(os.path.join(dirpath, name), encoding="utf-8").read()
               for dirpath, _, names in os.walk(sources) for name in names if name.endswith(".swift"))


def client(directory, library, count):
    """Writes the client package for `library`; returns {file label: (target, source path)}
    for the files that library compiles (the keys file only where it has keys)."""
    concurrency = has_concurrency_overloads(library)
    labels = [label for label in FILES if label != "keys" or has_keys(library)]
    targets = ", ".join(f'.target(name: "{FILES[label]}", dependencies: [.product(name: "Resolver", package: "Resolver")])'
                        for label in labels)
    write(os.path.join(directory, "Package.swift"),
          "// swift-tools-version:6.0\n// Generated by Benchmarks/Scripts/typecheck.py.\nimport PackageDescription\n\n"
          f'let package = Package(name: "TypecheckClient",\n'
          f'    dependencies: [.package(name: "Resolver", path: "{library}")],\n'
          f"    targets: [{targets}])\n")
    files = {}
    for label in labels:
        target = FILES[label]
        if label == "keys":
            types, declarations, lines = keys(count)
            head = "extension ResolverKeys {\n" + "\n".join(f"    {d}" for d in declarations) + "\n}\n\n"
        else:
            types, lines = ordinary(count) if label == "ordinary" else eight_shapes(count, concurrency)
            head = ""
        write(os.path.join(directory, "Sources", target, "Types.swift"), "\n".join(types) + "\n")
        body = "\n".join(f"        {line}" for line in lines)
        source = os.path.join(directory, "Sources", target, "Registrations.swift")
        write(source, f"import Resolver\n\n{head}extension Resolver {{\n    static func {FUNCTION.format(target)} {{\n"
                      f"{body}\n    }}\n}}\n")
        files[label] = (target, source)
    return files, concurrency


def build(directory, target):
    os.makedirs(os.path.join(directory, ".stats"), exist_ok=True)
    return subprocess.run(["swift", "build", "--package-path", directory, "--target", target,
                           "-Xswiftc", "-Xfrontend", "-Xswiftc", "-debug-time-function-bodies",
                           "-Xswiftc", "-stats-output-dir", "-Xswiftc", os.path.join(directory, ".stats")],
                          capture_output=True, text=True)


def solver_scopes(directory, source):
    """The constraint solver's scopes in the compile of `source` (-stats-output-dir): a count
    that does not depend on the machine's load, to read beside the times."""
    files = glob.glob(os.path.join(directory, ".stats", f"*-{os.path.basename(source)}-*.json"))
    if len(files) != 1:
        return None
    stats = json.load(open(files[0]))
    # The counter's name before Swift 6.3, and from 6.3 on.
    return stats.get("Constraint solver overall.OverallNumSolverScopes", stats.get("Sema.NumConstraintScopes"))


def timed(directory, target, source):
    """Recompiles `source`; returns the milliseconds its function bodies took (the registrations'
    function; for keys, also the 200 getters), and the solver's scopes."""
    shutil.rmtree(os.path.join(directory, ".stats"), ignore_errors=True)
    os.utime(source)
    result = build(directory, target)
    if result.returncode != 0:
        sys.exit(f"error: building {target} failed:\n{result.stdout[-4000:]}{result.stderr[-4000:]}")
    lines = (result.stdout + result.stderr).splitlines()
    function = re.compile(r"^([0-9.]+)ms\t" + re.escape(source) + r":\d+:\d+\t.*" + re.escape(FUNCTION.format(target)))
    if not any(map(function.match, lines)):
        sys.exit(f"error: no timing line for {FUNCTION.format(target)} (did the file recompile?)")
    body = re.compile(r"^([0-9.]+)ms\t" + re.escape(source) + r":\d+:\d+\t")
    return sum(float(m.group(1)) for m in map(body.match, lines) if m), solver_scopes(directory, source)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_library_arguments(parser)
    parser.add_argument("--count", type=int, default=200, help="registrations per file")
    parser.add_argument("--emit", help="only write the client package for this checkout into this folder")
    args = parser.parse_args()
    if args.emit:
        client(os.path.abspath(args.emit), ROOT, args.count)
        print(f"wrote {args.emit}")
        return

    libraries, tree = compared_libraries(WORK, args.base, args.against)
    try:
        clients = []
        for index, (label, library) in enumerate(libraries):
            # A package per base commit: SwiftPM keeps a build plan per package, which a
            # different commit's sources under the same path would not match.
            directory = os.path.join(WORK, "current" if index == 0 else f"base-{label.split()[-1]}")
            files, concurrency = client(directory, library, args.count)
            clients.append((label, directory, files, concurrency))
            print(f"==> {label}: building the client package once (the library too, the first time)", flush=True)
            for target, _ in files.values():
                result = build(directory, target)
                if result.returncode != 0 and "missing inputs" in result.stdout + result.stderr:
                    # SwiftPM kept the build plan of the library's earlier file list: start afresh.
                    shutil.rmtree(os.path.join(directory, ".build"), ignore_errors=True)
                    result = build(directory, target)
                if result.returncode != 0:
                    sys.exit(f"error: building {target} against {label} failed:\n{result.stderr[-4000:]}"
                             f"{result.stdout[-4000:]}")
            if not concurrency:
                print(f"    {label} has no @MainActor/async overloads: its 8-shape file has no `@MainActor in` "
                      "and no `await`", flush=True)
        print(f"==> {args.runs} runs, alternating libraries; load average before: {loadavg()}", flush=True)
        times, scopes = {}, {}
        for run in range(args.runs):
            for file in FILES:
                for label, directory, files, _ in clients:
                    if file not in files:
                        continue
                    target, source = files[file]
                    ms, count = timed(directory, target, source)
                    times.setdefault((file, label), []).append(ms)
                    scopes[file, label] = count
                    print(f"    run {run + 1}: {file:9} {label:14} {ms:8.1f} ms   {count} solver scopes", flush=True)
        print(f"==> load average after: {loadavg()}\n")
        print(subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()[0] + "\n")
        print(f"Type-checking {args.count} registrations (the keys file: {args.count} key declarations and "
              f"{args.count} resolves) (-debug-time-function-bodies, ms; {args.runs} runs, median):\n")
        print("| file | library | runs (ms) | median (ms) | this checkout ÷ it | solver scopes |\n|---|---|---|---|---|---|")
        for file in FILES:
            if (file, libraries[0][0]) not in times:
                continue
            ours = statistics.median(times[file, libraries[0][0]])
            for label, *_ in clients:
                if (file, label) not in times:
                    continue
                runs = times[file, label]
                median = statistics.median(runs)
                print(f"| {file} | {label} | {', '.join(f'{t:.0f}' for t in runs)} | {median:.0f} | "
                      f"{ours / median:.2f}× | {scopes[file, label]} |")
        # Issue 38: the keys file against each other library's ordinary file, in the same run.
        if ("keys", libraries[0][0]) in times:
            keys_median = statistics.median(times["keys", libraries[0][0]])
            for label, *_ in clients:
                if ("ordinary", label) in times:
                    median = statistics.median(times["ordinary", label])
                    print(f"\nkeys (this checkout) ÷ ordinary ({label}): {keys_median / median:.2f}× "
                          f"({keys_median:.0f} ms ÷ {median:.0f} ms; solver scopes {scopes['keys', libraries[0][0]]} "
                          f"against {scopes['ordinary', label]})")
    finally:
        if tree:
            shutil.rmtree(tree, ignore_errors=True)


if __name__ == "__main__":
    main()
